package charterfile

import (
	"strings"
	"testing"
)

// Expected readings of state.json and events.jsonl as pi-charter's store
// reads them (barisgit/pi-charter src/infrastructure/store.ts@a7780831:
// loadCharterState is JSON.parse then normalizeCharterState, lines 316-339;
// readEvents splits on "\n", drops empty strings and JSON.parses every
// line inside one try, lines 158-167). The inputs are ours.

func TestUpstreamStateReading(t *testing.T) {
	const ok = `"charterId":"20260801-000001-a","objective":"A","status":"active"`
	cases := []struct {
		name, src string
		valid     bool
		field     string // the member at fault when not valid
		problem   string // a part of the message when not valid
	}{
		{"phases", `{` + ok + `,"schemaVersion":"phases"}`, true, "", ""},
		{"file-interface", `{` + ok + `,"schemaVersion":"file-interface"}`, true, "", ""},
		// JSON.parse reads 1e400 as Infinity: the state loads.
		{"number beyond float64", `{` + ok + `,"schemaVersion":"phases","nextSeq":1e400,"ralph":{"activations":[1e-400]}}`, true, "", ""},
		// The last of a repeated key wins in JSON.parse.
		{"repeated key, last valid", `{` + ok + `,"schemaVersion":"v2","schemaVersion":"phases"}`, true, "", ""},
		{"repeated key, last invalid", `{` + ok + `,"schemaVersion":"phases","schemaVersion":"Phases"}`, false, "schemaVersion", "schemaVersion"},
		{"schemaVersion case", `{` + ok + `,"schemaVersion":"Phases"}`, false, "schemaVersion", "schemaVersion"},
		{"schemaVersion missing", `{` + ok + `}`, false, "schemaVersion", "schemaVersion"},
		{"schemaVersion a number", `{` + ok + `,"schemaVersion":3}`, false, "schemaVersion", "schemaVersion"},
		{"status padded", `{"charterId":"x","objective":"A","status":"active ","schemaVersion":"phases"}`, false, "status", "status"},
		{"empty objective is a string", `{"charterId":"x","objective":"","status":"paused","schemaVersion":"phases"}`, true, "", ""},
		{"empty charterId", `{"charterId":"","objective":"A","status":"active","schemaVersion":"phases"}`, false, "charterId", "charterId"},
		// JSON whitespace around the value is fine, CRLF included.
		{"crlf and indent", "{\r\n  " + ok + ",\r\n  \"schemaVersion\": \"phases\"\r\n}\r\n", true, "", ""},
		// JSON.parse does not skip a byte-order mark.
		{"bom", "\uFEFF{" + ok + `,"schemaVersion":"phases"}`, false, "", "byte-order mark"},
		{"trailing comma", `{` + ok + `,"schemaVersion":"phases",}`, false, "", "not JSON"},
		{"truncated", `{` + ok + `,"schemaVer`, false, "", "not JSON"},
		{"array", `[{` + ok + `,"schemaVersion":"phases"}]`, false, "", "not a JSON object"},
		{"null", `null`, false, "", "not a JSON object"},
		{"empty", ``, false, "", "not JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := ParseState([]byte(c.src))
			if st.Valid != c.valid {
				t.Fatalf("Valid = %v (%s), upstream's loader: %v", st.Valid, st.Problem, c.valid)
			}
			if c.valid {
				return
			}
			if st.Field != c.field {
				t.Errorf("Field = %q, want %q", st.Field, c.field)
			}
			if !strings.Contains(st.Problem, c.problem) {
				t.Errorf("Problem = %q, want it to mention %q", st.Problem, c.problem)
			}
		})
	}
}

func TestUpstreamEventsReading(t *testing.T) {
	const a = `{"type":"charter_created","ts":"2026-08-01T00:00:00Z","charterId":"a","objective":"A"}`
	const b = `{"type":"charter_paused","ts":"2026-08-01T00:00:01Z","charterId":"a","note":"lunch"}`
	cases := []struct {
		name, src string
		history   int // events upstream sees
		bad       []int
	}{
		{"two lines", a + "\n" + b + "\n", 2, nil},
		{"no final newline", a + "\n" + b, 2, nil},
		{"blank lines are dropped", "\n" + a + "\n\n" + b + "\n\n", 2, nil},
		// JSON.parse takes the CR as white space after the value.
		{"crlf", a + "\r\n" + b + "\r\n", 2, nil},
		// A line of spaces or a lone CR is not empty, and JSON.parse throws.
		{"spaces line", a + "\n   \n" + b + "\n", 0, []int{1}},
		{"lone cr line", a + "\n\r\n" + b + "\n", 0, []int{1}},
		// A writer cut off mid-line: the whole history is lost.
		{"partial last line", a + "\n" + b[:20], 0, []int{1}},
		{"number beyond float64", `{"type":"ralph_activated","ts":"2026-08-01T00:00:00Z","charterId":"a","at":1e400}` + "\n", 1, nil},
		// Duplicate events are kept, as in real journals.
		{"duplicates", a + "\n" + a + "\n", 2, nil},
		// Any JSON value parses; upstream's type is not checked.
		{"not an object", a + "\n42\n", 2, nil},
		{"bom on first line", "\uFEFF" + a + "\n", 0, []int{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := ParseEvents([]byte(c.src))
			if len(ev.History) != c.history {
				t.Errorf("history has %d events, upstream reads %d", len(ev.History), c.history)
			}
			var bad []int
			for _, b := range ev.Bad {
				bad = append(bad, b.Line)
			}
			if len(bad) != len(c.bad) || (len(bad) > 0 && bad[0] != c.bad[0]) {
				t.Errorf("bad lines %v, want %v", bad, c.bad)
			}
		})
	}
}

func TestEventsMessages(t *testing.T) {
	const a = `{"type":"charter_created","ts":"2026-08-01T00:00:00Z","charterId":"a"}`
	ds := checkEvents(ParseEvents([]byte(a + "\n   \n")))
	if len(ds) != 1 {
		t.Fatalf("%d diagnostics, want 1", len(ds))
	}
	for _, want := range []string{"only white space", "(1 good event)"} {
		if !strings.Contains(ds[0].Message, want) {
			t.Errorf("message %q lacks %q", ds[0].Message, want)
		}
	}
}
