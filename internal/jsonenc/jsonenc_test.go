package jsonenc

import "testing"

func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	v := map[string]any{"note": "see work/<id>/ & REPORT.md > 0", "n": []int{1, 2}}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"n":[1,2],"note":"see work/<id>/ & REPORT.md > 0"}`; string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
	got, err = Indent(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"n\": [\n    1,\n    2\n  ],\n  \"note\": \"see work/<id>/ & REPORT.md > 0\"\n}\n"; string(got) != want {
		t.Errorf("Indent = %q, want %q", got, want)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("a func encoded")
	}
}
