package diag

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

func TestApplyFixes(t *testing.T) {
	src := []byte("alpha beta gamma\n")
	span := func(s, e int) source.Span { return source.Span{Start: s, End: e} }
	for _, tc := range []struct {
		name    string
		fixes   []*Fix
		want    string
		applied []string
	}{
		{"none", nil, "alpha beta gamma\n", nil},
		{"one replace", []*Fix{Replace("b", span(6, 10), "BETA")}, "alpha BETA gamma\n", []string{"b"}},
		{"applied in text order whatever the input order",
			[]*Fix{Replace("g", span(11, 16), "G"), Replace("a", span(0, 5), "A")}, "A beta G\n", []string{"a", "g"}},
		{"an overlapping fix waits for the next pass",
			[]*Fix{Replace("ab", span(0, 10), "x"), Replace("b", span(6, 10), "y")}, "x gamma\n", []string{"ab"}},
		{"two inserts at one place have no order: the second waits",
			[]*Fix{Insert("1", 5, "1"), Insert("2", 5, "2")}, "alpha1 beta gamma\n", []string{"1"}},
		{"an insert where a replace starts waits",
			[]*Fix{Replace("r", span(6, 10), "B"), Insert("i", 6, "i")}, "alpha B gamma\n", []string{"r"}},
		{"an insert right after a replace is fine",
			[]*Fix{Replace("r", span(6, 10), "B"), Insert("i", 10, "!")}, "alpha B! gamma\n", []string{"r", "i"}},
		{"a multi-edit fix is taken whole or not at all",
			[]*Fix{Replace("g", span(11, 13), "G"), {Title: "two", Edits: []Edit{{Span: span(0, 1), NewText: "A"}, {Span: span(12, 14), NewText: "M"}}}},
			"Alpha beta gMma\n", []string{"two"}},
		{"out of range is skipped", []*Fix{Replace("bad", span(10, 99), "x")}, "alpha beta gamma\n", nil},
		{"a fix needing input is not applied", []*Fix{{Title: "ask", NeedsInput: true, Edits: []Edit{{Span: span(0, 0), NewText: "?"}}}}, "alpha beta gamma\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, applied := ApplyFixes(src, tc.fixes)
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			var titles []string
			for _, f := range applied {
				titles = append(titles, f.Title)
			}
			if len(titles) != len(tc.applied) {
				t.Fatalf("applied %v, want %v", titles, tc.applied)
			}
			for i := range titles {
				if titles[i] != tc.applied[i] {
					t.Errorf("applied %v, want %v", titles, tc.applied)
				}
			}
		})
	}
	if string(src) != "alpha beta gamma\n" {
		t.Error("ApplyFixes changed its input")
	}
}

func TestFixShiftedAndLocated(t *testing.T) {
	f := Replace("x", source.Span{Start: 2, End: 3}, "X")
	g := f.Shifted(4)
	if f.Edits[0].Span.Start != 2 || g.Edits[0].Span != (source.Span{Start: 6, End: 7}) {
		t.Fatalf("Shifted: %+v from %+v", g.Edits[0].Span, f.Edits[0].Span)
	}
	ds := []Diagnostic{{Span: source.Span{Start: 6, End: 7}, Fix: g}}
	Locate(ds, "f.md", source.NewIndex([]byte("line\nab©d\n")))
	if r := ds[0].Fix.Edits[0].Range; r.Start != (source.Position{Line: 1, Character: 1}) || r.End != (source.Position{Line: 1, Character: 2}) {
		t.Errorf("located %+v", r)
	}
	if g.Edits[0].Range != (source.Range{}) {
		t.Error("Locate changed a shared fix")
	}
}
