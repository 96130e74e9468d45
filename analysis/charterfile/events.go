package charterfile

import (
	"encoding/json"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Events is .charters/<id>/events.jsonl as upstream's readEvents
// (src/infrastructure/store.ts) reads it: the text split on LF, empty lines
// dropped, every other line parsed as JSON inside one try, so a single
// line that is not JSON makes the whole history read as empty.
type Events struct {
	// History is what upstream sees: every event, or none when a line is bad.
	History []Event
	// Parsed are the lines that are JSON, whether or not upstream sees them.
	Parsed []Event
	// Bad are the lines that are not JSON.
	Bad []BadLine
}

// Event is one line of the journal. Fields are those of the line's object;
// Type, TS and CharterID are read from it when they are strings.
type Event struct {
	Type      string
	TS        string
	CharterID string
	Fields    map[string]json.RawMessage
	Line      int // 0-based
	Span      source.Span
}

// BadLine is a line upstream's JSON.parse throws on.
type BadLine struct {
	Line int // 0-based
	Span source.Span
	Err  string
}

// ParseEvents reads events.jsonl.
func ParseEvents(src []byte) *Events {
	ev := &Events{}
	s := string(src)
	start := 0
	for n := 0; start <= len(s); n++ {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := s[start:end]
		if line != "" { // .filter(Boolean)
			span := source.Span{Start: start, End: end}
			// A line is JSON.parse's when it is JSON (jsonParse's
			// numbers out of range are JSON): its syntax is all to ask.
			// The usual line, an object, is scanned once: read as one,
			// it is JSON; only another line is asked for its syntax.
			b := []byte(line)
			obj, isObject := pi.ReadJSONObject(b)
			var err error
			if !isObject {
				err = jsonSyntax(b)
			}
			if err != nil {
				ev.Bad = append(ev.Bad, BadLine{Line: n, Span: span, Err: jsonProblem(b, err)})
			} else {
				e := Event{Line: n, Span: span}
				if isObject { // an object's members, raw: a repeated key's last wins
					e.Fields = make(map[string]json.RawMessage, len(obj.Members))
					for _, m := range obj.Members {
						e.Fields[m.Name] = m.Raw
					}
					e.Type, e.TS, e.CharterID = rawString(e.Fields["type"]), rawString(e.Fields["ts"]), rawString(e.Fields["charterId"])
				}
				ev.Parsed = append(ev.Parsed, e)
			}
		}
		if end == len(s) {
			break
		}
		start = end + 1
	}
	if len(ev.Bad) == 0 {
		ev.History = ev.Parsed
	}
	return ev
}

func rawString(raw json.RawMessage) string {
	// pi's reading of a JSON string: one without escapes is copied,
	// not decoded by encoding/json (an events.jsonl has three a line).
	s, _ := (&pi.JSONMember{Raw: raw}).String()
	return s
}

// Str returns the string field name of e, "" when absent or not a string.
func (e *Event) Str(name string) string { return rawString(e.Fields[name]) }

// FailCounts counts, per criterion, the criterion_changed events that set
// its status (or ADR-0014 evidence) to fail, as upstream's status view
// (countStatusFailures, application/service.ts@494a765e) does.
func (ev *Events) FailCounts() map[string]int {
	out := map[string]int{}
	for _, e := range ev.History {
		if e.Type != "criterion_changed" {
			continue
		}
		field := e.Str("field")
		if (field != "status.value" && field != "evidence.status") || Status(e.Str("new")) != StatusFail {
			continue
		}
		if id := e.Str("criterion"); id != "" {
			out[id]++
		}
	}
	return out
}
