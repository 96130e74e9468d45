package charterfile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// An event's fields are its line's members as encoding/json reads them
// into raw values (a repeated key's last wins, escaped keys decoded); a
// line that is JSON but not an object has none, and a line that is not
// JSON is bad with encoding/json's message.
func TestEventFieldsAsEncodingJSON(t *testing.T) {
	lines := []string{
		`{"type":"criterion_changed","ts":"2026-01-01T00:00:00Z","field":"status.value","new":"fail","criterion":"C1"}`,
		` { "type" : "a" , "t\u0079pe":"b", "n": 1e400, "o": {"x": [1, {"y": null}]}, "s": "tab\there" } `,
		`{}`, `[1,2]`, `"text"`, `null`, `12`,
		`{"a":1,}`, `{"a":"\x"}`, `not json`,
	}
	ev := ParseEvents([]byte(strings.Join(lines, "\n\n")))
	parsed, bad := 0, 0
	for i, line := range lines {
		n := 2 * i
		var want map[string]json.RawMessage
		isJSON := json.Valid([]byte(line))
		if !isJSON {
			var raw json.RawMessage
			werr := json.Unmarshal([]byte(line), &raw)
			if bad >= len(ev.Bad) || ev.Bad[bad].Line != n || ev.Bad[bad].Err != jsonProblem([]byte(line), werr) {
				t.Fatalf("line %d %q: not among the bad as encoding/json says: %+v", n, line, ev.Bad)
			}
			bad++
			continue
		}
		if json.Unmarshal([]byte(line), &want) != nil {
			want = nil
		}
		if parsed >= len(ev.Parsed) || ev.Parsed[parsed].Line != n {
			t.Fatalf("line %d %q: not parsed: %+v", n, line, ev.Parsed)
		}
		if got := ev.Parsed[parsed].Fields; !reflect.DeepEqual(got, want) {
			t.Errorf("line %d %q: fields %q, encoding/json read %q", n, line, got, want)
		}
		parsed++
	}
	if parsed != len(ev.Parsed) || bad != len(ev.Bad) || ev.History != nil {
		t.Errorf("parsed %d of %d, bad %d of %d, history %v", parsed, len(ev.Parsed), bad, len(ev.Bad), ev.History)
	}
	if e := ev.Parsed[1]; e.Type != "b" {
		t.Errorf("type of a line with it twice: %q", e.Type)
	}
}
