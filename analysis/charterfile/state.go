package charterfile

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Schema versions of state.json that upstream's loader accepts.
const (
	SchemaFileInterface = "file-interface"
	SchemaPhases        = "phases"
)

// lifecycle are the charter statuses of state.json (pi.Lifecycles: the
// same four words in .pi/charters/).
var lifecycle = pi.Names(pi.Lifecycles)

// State is .charters/<id>/state.json as upstream's loader
// (src/infrastructure/store.ts normalizeCharterState) reads it.
type State struct {
	// Valid: upstream loads it. Otherwise the loader throws and the listing
	// silently skips the charter; Problem is the loader's error message and
	// ProblemSpan where the fault is.
	Valid       bool
	Problem     string
	ProblemSpan source.Span
	// Field names the member at fault: charterId, objective, status,
	// schemaVersion, or "" for the file as a whole.
	Field string

	CharterID     string
	Objective     string
	Status        string
	SchemaVersion string
	CreatedAt     string
	UpdatedAt     string
	SessionID     string

	// File-interface charters: the criteria snapshot upstream diffs
	// charter.md against, and the sequence numbers that date it.
	NextSeq          int
	LatestSourceSeq  int
	SnapshotHash     string
	CriteriaSnapshot []Snapshot

	members *pi.JSONObject // the top-level members, with their spans
	src     []byte
}

// Snapshot is one criterion of state.json's criteriaSnapshot, normalised
// as the ADR-0015 loader does (an ADR-0014 evidence snapshot reads as a
// status: none becomes pending).
type Snapshot struct {
	ID      string
	Title   string
	Depends []string
	Status  Status
	Note    string
	Seq     int
	// Shape is the generation whose shape the entry is written in: FI14
	// for evidence {status, note} with evidenceSeq, FI15 for status
	// {value, note} with statusSeq (what the era that wrote it writes).
	Shape Generation
}

// Span returns the span of the value of the top-level member name, or the
// empty span at the start of the file.
func (s *State) Span(name string) source.Span {
	if m := s.members.Get(name); m != nil {
		return m.ValueSpan
	}
	return source.Span{}
}

// line is the 1-based line of offset off in state.json.
func (s *State) line(off int) int {
	return bytes.Count(s.src[:min(off, len(s.src))], []byte("\n")) + 1
}

// ParseState reads state.json. It never fails: an unreadable file is a
// State with Valid false and the reason.
func ParseState(src []byte) *State {
	st := &State{src: src}
	v, err := jsonParse(src)
	if err != nil {
		st.Problem, st.ProblemSpan = "state.json is not JSON ("+jsonProblem(src, err)+")", syntaxSpan(src, err)
		return st
	}
	obj, ok := v.(map[string]any)
	if !ok {
		st.Problem = "state.json is not a JSON object (Invalid charter state)"
		st.ProblemSpan = source.Span{Start: 0, End: len(bytes.TrimRight(src, " \t\r\n"))}
		return st
	}
	st.members, _ = pi.ReadJSONObject(src) // JSON, so an object: a repeated key's last wins in Get, as in JSON.parse
	str := func(k string) (string, bool) { s, ok := obj[k].(string); return s, ok }
	st.CharterID, _ = str("charterId")
	st.Objective, _ = str("objective")
	st.Status, _ = str("status")
	st.SchemaVersion, _ = str("schemaVersion")
	st.CreatedAt, _ = str("createdAt")
	st.UpdatedAt, _ = str("updatedAt")
	st.SessionID, _ = str("sessionId")
	st.SnapshotHash, _ = str("snapshotHash")
	st.NextSeq, st.LatestSourceSeq = 1, 0
	if n, ok := obj["nextSeq"].(float64); ok && n > 0 && n <= math.MaxInt32 {
		st.NextSeq = int(math.Floor(n))
	}
	if n, ok := obj["latestSourceSeq"].(float64); ok && n >= 0 && n <= math.MaxInt32 {
		st.LatestSourceSeq = int(math.Floor(n))
	}
	if arr, ok := obj["criteriaSnapshot"].([]any); ok {
		for _, e := range arr {
			if s, ok := snapshotOf(e); ok {
				st.CriteriaSnapshot = append(st.CriteriaSnapshot, s)
			}
		}
	}
	// The loader's checks, in its order.
	fail := func(field, msg string) *State {
		st.Field, st.Problem, st.ProblemSpan = field, msg, st.Span(field)
		return st
	}
	if id, ok := obj["charterId"].(string); !ok || id == "" {
		return fail("charterId", "Invalid charter state: charterId")
	}
	if _, ok := obj["objective"].(string); !ok {
		return fail("objective", "Invalid charter state: objective")
	}
	if s, ok := obj["status"].(string); !ok || !oneOf(s, lifecycle) {
		return fail("status", "Invalid charter state: status")
	}
	if s, ok := obj["schemaVersion"].(string); !ok || (s != SchemaFileInterface && s != SchemaPhases) {
		return fail("schemaVersion", "Invalid charter state: schemaVersion")
	}
	st.Valid = true
	return st
}

func snapshotOf(v any) (Snapshot, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Snapshot{}, false
	}
	id, ok1 := m["id"].(string)
	title, ok2 := m["title"].(string)
	deps, ok3 := m["depends"].([]any)
	if !ok1 || !ok2 || !ok3 {
		return Snapshot{}, false
	}
	s := Snapshot{ID: id, Title: title}
	for _, d := range deps {
		if ds, ok := d.(string); ok {
			s.Depends = append(s.Depends, ds)
		}
	}
	if st, ok := m["status"].(map[string]any); ok {
		value, _ := st["value"].(string)
		note, okNote := st["note"].(string)
		seq, okSeq := m["statusSeq"].(float64)
		if slices.Contains(StatusLineTokens, Status(value)) && okNote && okSeq {
			s.Status, s.Note, s.Seq, s.Shape = Status(value), note, int(seq), FI15
			return s, true
		}
	}
	if ev, ok := m["evidence"].(map[string]any); ok {
		value, _ := ev["status"].(string)
		note, okNote := ev["note"].(string)
		seq, okSeq := m["evidenceSeq"].(float64)
		if slices.Contains(EvidenceLineTokens, Status(value)) && okNote && okSeq {
			s.Status, s.Note, s.Seq, s.Shape = Status(value).Current(), note, int(seq), FI14
			return s, true
		}
	}
	return Snapshot{}, false
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// syntaxSpan points at the byte where JSON decoding failed.
func syntaxSpan(src []byte, err error) source.Span {
	off := len(src)
	if se, ok := err.(*json.SyntaxError); ok {
		off = int(se.Offset)
	}
	if off > len(src) {
		off = len(src)
	}
	start := off
	if start > 0 {
		start--
	}
	return source.Span{Start: start, End: off}
}
