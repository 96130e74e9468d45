package diag

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Locate places related locations of the same file (File "") too, in
// UTF-16 columns; one in another file keeps its own range.
func TestLocateRelated(t *testing.T) {
	ix := source.NewIndex([]byte("## Heading\r\nÇa coûte 🌱 TBD\r\n"))
	d := New(SectionPartial, source.Span{Start: 0, End: 10}, "m")
	other := Related{File: "/elsewhere.md", Range: source.Range{Start: source.Position{Line: 7}}}
	d.Related = []Related{{Span: source.Span{Start: 28, End: 31}, Message: "TBD"}, other}
	ds := []Diagnostic{d}
	Locate(ds, "/charter.md", ix)
	got := ds[0].Related
	want := source.Range{Start: source.Position{Line: 1, Character: 12}, End: source.Position{Line: 1, Character: 15}}
	if got[0].File != "/charter.md" || got[0].Range != want {
		t.Errorf("related = %+v, want /charter.md at %+v", got[0], want)
	}
	if got[1] != other {
		t.Errorf("other file's related changed: %+v", got[1])
	}
}
