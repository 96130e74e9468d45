package charterfile

import "testing"

// A state.json repair edits the value of the member it names, the last
// one when the key is repeated (JSON.parse keeps the last), at its exact
// span: escapes and white space around it as written.
func TestStateFixEditsTheMembersValue(t *testing.T) {
	for _, c := range []struct {
		name, src, field, value string
	}{
		{"charterId differs", "{\n  \"charterId\" :  \"old-id\" ,\n  \"objective\": \"o\", \"status\": \"active\", \"schemaVersion\": \"phases\"\n}\n", "", `"old-id"`},
		{"charterId repeated", `{"charterId":"a","objective":"o","status":"active","schemaVersion":"phases","charterId":"b\u0030"}`, "", `"b\u0030"`},
		{"charterId empty", `{"charterId":"","objective":"o","status":"active","schemaVersion":"phases"}`, "charterId", `""`},
		{"status", "{\"charterId\":\"20260101-120000-good-id\",\"objective\":\"o\",\"st\\u0061tus\":\t\"Active\" ,\"schemaVersion\":\"phases\"}", "status", `"Active"`},
		{"schemaVersion", `{"charterId":"20260101-120000-good-id","objective":"o","status":"active","schemaVersion":"Phases"}`, "schemaVersion", `"Phases"`},
	} {
		src := []byte(c.src)
		d := &Dir{ID: "20260101-120000-good-id", State: ParseState(src)}
		if d.State.Field != c.field {
			t.Fatalf("%s: field %q, want %q (%s)", c.name, d.State.Field, c.field, d.State.Problem)
		}
		var found bool
		for _, dg := range checkState(d) {
			if dg.Fix == nil {
				continue
			}
			found = true
			sp := dg.Fix.Edits[0].Span
			if got := string(src[sp.Start:sp.End]); got != c.value {
				t.Errorf("%s: the fix edits %q, want %q", c.name, got, c.value)
			}
		}
		if !found {
			t.Errorf("%s: no fix", c.name)
		}
	}
}
