package pi

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// EvidenceRow is one row of an evidence.json file: the typed fields hold
// its string properties, SchemaProblems what upstream's schema says of the
// whole object, and the spans where diagnostics point. A history holds a
// hundred thousand runs, so the object itself is not kept.
type EvidenceRow struct {
	Span source.Span // the object
	// IDSpan, SourceSpan and BecauseSpan are the values of criterionId,
	// source and because (the last of each, as JSON.parse reads them);
	// empty when the property is absent.
	IDSpan, SourceSpan, BecauseSpan source.Span

	CriterionID   string
	Outcome       Outcome
	Summary       string
	TS            string
	CharterID     string
	FeatureID     string
	Because       string
	Source        Source
	RecordedBy    string
	NarrativePath string

	schema []JSONProblem // SchemaProblems, found when the row was read
}

// Time is the row's ts; ok is false when it does not parse.
func (r *EvidenceRow) Time() (time.Time, bool) { return ParseTime(r.TS) }

// Evidence row properties (upstream's schema; no others are allowed).
var (
	evidenceRequired = []string{"criterionId", "outcome", "summary", "ts"}
	evidenceTypes    = map[string]string{
		"criterionId": "string", "outcome": "string", "summary": "string", "ts": "string",
		"charterId": "string", "featureId": "string", "because": "string", "artifacts": "array",
		"details": "object", "source": "string", "recordedBy": "string", "narrativePath": "string",
		"verifier": "string|object",
	}
)

// EvidenceProperties lists the allowed property names, required first.
func EvidenceProperties() []string {
	return []string{"criterionId", "outcome", "summary", "ts", "charterId", "featureId", "because",
		"artifacts", "details", "source", "recordedBy", "narrativePath", "verifier"}
}

// ParseEvidence reads an evidence.json file: one row object or an array of
// them. Unreadable JSON and non-object rows come back as problems (code
// json-invalid or evidence-invalid); schema checks are SchemaProblems'.
func ParseEvidence(src []byte) ([]EvidenceRow, []JSONProblem) {
	return parseEvidence(src, nil)
}

// parseEvidence is ParseEvidence; strings repeated from run to run (ids,
// outcomes, sources, recorders, property names) are taken from in when it
// is not nil, so a long history holds each once.
func parseEvidence(src []byte, in *interner) ([]EvidenceRow, []JSONProblem) {
	span, p := checkJSON(src)
	if p != nil {
		return nil, []JSONProblem{*p}
	}
	var spans []source.Span
	switch src[span.Start] {
	case '{':
		spans = []source.Span{span}
	case '[':
		var err error
		if spans, err = readArray(src, span); err != nil {
			return nil, []JSONProblem{{Span: span, Message: "invalid JSON: " + err.Error(), Code: diag.JSONInvalid}}
		}
	default:
		return nil, []JSONProblem{{Span: span, Message: "evidence.json must hold a row object or an array of rows, found " + jsonType(src[span.Start:span.End]), Code: diag.EvidenceInvalid}}
	}
	rows := in.rowSlab(len(spans))
	var problems []JSONProblem
	for i, s := range spans {
		if src[s.Start] != '{' {
			problems = append(problems, JSONProblem{Span: s, Message: fmt.Sprintf("row %d is a JSON %s, not an evidence object", i+1, jsonType(src[s.Start:s.End])), Code: diag.EvidenceInvalid})
			continue
		}
		obj, err := in.object(src, s)
		if err != nil {
			problems = append(problems, JSONProblem{Span: s, Message: "invalid JSON: " + err.Error(), Code: diag.JSONInvalid})
			continue
		}
		row := EvidenceRow{
			Span: s, IDSpan: valueSpan(obj, "criterionId"), SourceSpan: valueSpan(obj, "source"), BecauseSpan: valueSpan(obj, "because"),
			CriterionID: in.strOf(obj, "criterionId"), Outcome: Outcome(in.strOf(obj, "outcome")), Summary: obj.Str("summary"),
			TS: obj.Str("ts"), CharterID: in.strOf(obj, "charterId"), FeatureID: in.strOf(obj, "featureId"),
			Because: obj.Str("because"), Source: Source(in.strOf(obj, "source")), RecordedBy: in.strOf(obj, "recordedBy"),
			NarrativePath: obj.Str("narrativePath"),
		}
		row.schema = schemaProblems(obj, &row)
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		rows = nil // as when no row was made
	}
	return rows, problems
}

var subagentRecorder = regexp.MustCompile(`^subagent:[^:\s]+:\S+$`)

// SchemaProblems checks r against upstream's evidence schema: required
// properties, no extra properties, property types, outcome, ISO ts, source,
// recordedBy shape and a relative narrativePath. Each problem has code
// evidence-invalid and sits on the offending key or value.
func (r *EvidenceRow) SchemaProblems() []JSONProblem { return r.schema }

// HasBecause reports whether the row has a because property.
func (r *EvidenceRow) HasBecause() bool { return r.BecauseSpan != source.Span{} }

func valueSpan(o *JSONObject, name string) source.Span {
	if m := o.Get(name); m != nil {
		return m.ValueSpan
	}
	return source.Span{}
}

// schemaProblems are obj's breaks of the schema; row is obj as read, whose
// string values are not decoded again.
func schemaProblems(obj *JSONObject, row *EvidenceRow) []JSONProblem {
	var out []JSONProblem
	add := func(span source.Span, format string, args ...any) {
		out = append(out, JSONProblem{Span: span, Message: fmt.Sprintf(format, args...), Code: diag.EvidenceInvalid})
	}
	for _, name := range evidenceRequired {
		if obj.Get(name) == nil {
			add(obj.openSpan(), "evidence row lacks the required property %q; add it", name)
		}
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		want, known := evidenceTypes[m.Name]
		if !known {
			add(m.KeySpan, "property %q is not allowed in an evidence row (upstream's schema forbids extra properties); remove it or move it under \"details\"", m.Name)
			continue
		}
		if !strings.Contains(want, m.Type()) {
			add(m.ValueSpan, "property %q must be a %s, not a %s", m.Name, strings.ReplaceAll(want, "|", " or "), m.Type())
			continue
		}
		v, read := row.value(m.Name)
		switch {
		case !read:
			continue // a property whose value the schema leaves free
		case obj.Get(m.Name) != m:
			v, _ = m.String() // not the value the row took: the last of its name
		}
		switch m.Name {
		case "outcome":
			if !Outcome(v).Valid() {
				add(m.ValueSpan, "outcome %q is not pass, fail or partial", v)
			}
		case "ts":
			if !IsISOTime(v) {
				add(m.ValueSpan, "ts %q is not an ISO 8601 time (e.g. 2026-05-15T03:00:00.000Z)", v)
			}
		case "source":
			if !Source(v).Valid() {
				add(m.ValueSpan, "source %q is not manual, verifier or subagent", v)
			}
		case "recordedBy":
			if v != "user" && v != "agent:root" && !subagentRecorder.MatchString(v) {
				add(m.ValueSpan, "recordedBy %q is not agent:root, user or subagent:<agent>:<session>", v)
			}
		case "narrativePath":
			if isAbsPath(v) {
				add(m.ValueSpan, "narrativePath %q must be relative to the run directory", v)
			}
		case "criterionId", "summary":
			if strings.TrimSpace(v) == "" {
				add(m.ValueSpan, "%s is empty", m.Name)
			}
		}
	}
	return out
}

// value is the row's value of the string property name, as read into it
// from the last member of that name; read is false for the properties
// whose values the schema does not constrain (beyond their type).
func (r *EvidenceRow) value(name string) (v string, read bool) {
	switch name {
	case "criterionId":
		return r.CriterionID, true
	case "outcome":
		return string(r.Outcome), true
	case "summary":
		return r.Summary, true
	case "ts":
		return r.TS, true
	case "source":
		return string(r.Source), true
	case "recordedBy":
		return r.RecordedBy, true
	case "narrativePath":
		return r.NarrativePath, true
	}
	return "", false
}

// openSpan is the object's opening brace, where "missing property" goes.
func (o *JSONObject) openSpan() source.Span {
	return source.Span{Start: o.Span.Start, End: o.Span.Start + 1}
}

func isAbsPath(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) ||
		len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '/' || p[2] == '\\')
}

// IsISOTime reports an ISO 8601 date-time as toISOString writes it (a zone
// or offset required; fraction optional).
func IsISOTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// interner hands out one copy of each string it is given: the strings that
// repeat across the runs of one load. A nil interner returns s as it is.
// It also hands out the runs and rows of one loading goroutine from slabs,
// a few allocations for a history's hundred thousand runs rather than two
// a run.
type interner struct {
	m    map[string]string
	runs []EvidenceRun // the slab runs are taken from
	rows []EvidenceRow // the slab rows are taken from
	// runsSlab and rowsSlab are the sizes of the last slab of each.
	runsSlab, rowsSlab int
	// first is the size of the first slab of each when the loader knows
	// how many runs there are (a charter of two runs needs no room for
	// eight); 0 for 8.
	first int
	// obj is the room one row object at a time is read into: its values
	// are copied out of it into the row.
	obj JSONObject
}

// object reads the object at span of src (readObject): into in's room, used
// again for the next, when in is not nil.
func (in *interner) object(src []byte, span source.Span) (*JSONObject, error) {
	if in == nil {
		return readObject(src, span)
	}
	return readObjectInto(&in.obj, src, span)
}

// slabMax is the most runs or rows a slab holds; slabs grow to it from a
// few, so that loading a few runs (a reload) takes little.
const slabMax = 512

// nextSlab is the size of a new slab after one of size *last: twice it,
// up to slabMax; the first is in.first, or 8.
func (in *interner) nextSlab(last *int) int {
	switch {
	case *last > 0:
		*last = min(slabMax, 2**last)
	case in.first > 0:
		*last = min(slabMax, in.first)
	default:
		*last = 8
	}
	return *last
}

// run is a new run from in's slab.
func (in *interner) run() *EvidenceRun {
	if len(in.runs) == 0 {
		in.runs = make([]EvidenceRun, in.nextSlab(&in.runsSlab))
	}
	r := &in.runs[0]
	in.runs = in.runs[1:]
	return r
}

// rowSlab is room for n rows from in's slab (length 0, capacity n); a nil
// interner allocates it, and none is needed for no rows.
func (in *interner) rowSlab(n int) []EvidenceRow {
	switch {
	case n == 0:
		return nil
	case in == nil || n > slabMax/4:
		return make([]EvidenceRow, 0, n)
	}
	if len(in.rows) < n {
		in.rows = make([]EvidenceRow, max(n, in.nextSlab(&in.rowsSlab)))
	}
	rows := in.rows[:0:n]
	in.rows = in.rows[n:]
	return rows
}

// strOf is in.str(o.Str(name)), without making a copy of a plain string
// value (no escapes) that in holds already.
func (in *interner) strOf(o *JSONObject, name string) string {
	m := o.Get(name)
	if in != nil && m != nil && len(m.Raw) >= 2 && m.Raw[0] == '"' {
		body := m.Raw[1 : len(m.Raw)-1]
		if bytes.IndexByte(body, '\\') < 0 {
			if s, ok := in.m[string(body)]; ok {
				return s
			}
		}
	}
	s, _ := m.String()
	return in.str(s)
}

func (in *interner) str(s string) string {
	if in == nil || s == "" {
		return s
	}
	if t, ok := in.m[s]; ok {
		return t
	}
	if in.m == nil {
		in.m = map[string]string{}
	}
	in.m[s] = s
	return s
}
