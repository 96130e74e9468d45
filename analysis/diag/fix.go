package diag

import (
	"fmt"
	"sort"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Fix is a quick fix that a check knows to be the one obvious repair of its
// finding: a title for the menu and the edits, as data, so the server's
// code actions and `check --fix` apply the same thing. Edits are in the
// diagnostic's file and must not overlap.
type Fix struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits"`
}

// Edit replaces the bytes of Span with NewText (an empty span inserts).
// Range is Span as an LSP range, filled by Locate.
type Edit struct {
	Span    source.Span  `json:"-"`
	Range   source.Range `json:"range"`
	NewText string       `json:"newText"`
}

// ApplyEdits returns src with edits applied. Edits may come in any order;
// overlapping edits, or a span outside src, are an error.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
	out := make([]byte, 0, len(src))
	last := 0
	for _, e := range es {
		if e.Span.Start < last || e.Span.End < e.Span.Start || e.Span.End > len(src) {
			return nil, fmt.Errorf("edit %d-%d overlaps another or lies outside the file", e.Span.Start, e.Span.End)
		}
		out = append(out, src[last:e.Span.Start]...)
		out = append(out, e.NewText...)
		last = e.Span.End
	}
	return append(out, src[last:]...), nil
}
