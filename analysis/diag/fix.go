package diag

import (
	"fmt"
	"slices"
	"sort"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Fix is a change that resolves a diagnostic: edits to the diagnostic's own
// file, computed by the check that found the problem. The server offers it
// as a quick fix; `charter-lsp check --fix` applies it unless NeedsInput.
type Fix struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits"`
	// NeedsInput marks a fix that leaves something for the user to write
	// (an empty `Because: ` line): an editor offers it, and the user types
	// the rest; a batch fix must not apply it.
	NeedsInput bool `json:"needsInput,omitempty"`
	// Unsafe marks a fix that may change what the file says, not only how
	// it is written (FixSafety): check --fix applies it only with
	// --unsafe-fixes, and an editor does not prefer it. A code the
	// catalogue classifies FixUnsafe has every fix unsafe (Locate sets it);
	// a FixMixed code's check says per fix.
	Unsafe bool `json:"unsafe,omitempty"`
}

// Edit replaces the bytes of Span with NewText. Range is Span as an LSP
// range, filled by Locate.
type Edit struct {
	Span    source.Span  `json:"-"`
	Range   source.Range `json:"range"`
	NewText string       `json:"newText"`
}

// Replace is the fix that replaces span with text.
func Replace(title string, span source.Span, text string) *Fix {
	return &Fix{Title: title, Edits: []Edit{{Span: span, NewText: text}}}
}

// Insert is the fix that inserts text at offset at.
func Insert(title string, at int, text string) *Fix {
	return Replace(title, source.Span{Start: at, End: at}, text)
}

// Shifted returns a copy of f with every edit moved by delta bytes (f may
// be shared by reused parse blocks, so it is not changed).
func (f *Fix) Shifted(delta int) *Fix {
	if f == nil {
		return nil
	}
	n := *f
	n.Edits = make([]Edit, len(f.Edits))
	for i, e := range f.Edits {
		e.Span = e.Span.Shift(delta)
		n.Edits[i] = e
	}
	return &n
}

// Applicable reports whether f can be applied without asking the user.
func (f *Fix) Applicable() bool { return f != nil && !f.NeedsInput && len(f.Edits) > 0 }

// Guess marks f unsafe when guessed is true (the fix picks a word the
// author did not write), and returns f.
func (f *Fix) Guess(guessed bool) *Fix {
	if f != nil && guessed {
		f.Unsafe = true
	}
	return f
}

// ApplyFixes applies fixes to src in one pass. A fix is taken whole or not
// at all: one whose edits fall outside src, overlap each other, or overlap
// (or insert at the same place as) an edit of a fix already taken is
// skipped, so the result never depends on the order of conflicting edits;
// the caller checks again and applies the rest in a further pass. Fixes are
// considered in order of their first edit. It returns the new text and the
// fixes applied, in that order.
func ApplyFixes(src []byte, fixes []*Fix) ([]byte, []*Fix) {
	order := make([]*Fix, 0, len(fixes))
	for _, f := range fixes {
		if f.Applicable() && wellFormed(f, len(src)) {
			order = append(order, f)
		}
	}
	slices.SortStableFunc(order, func(a, b *Fix) int { return firstStart(a) - firstStart(b) })
	var taken []Edit // sorted by start, never overlapping
	var applied []*Fix
	for _, f := range order {
		if conflicts(f.Edits, taken) {
			continue
		}
		for _, e := range f.Edits {
			i, _ := slices.BinarySearchFunc(taken, e.Span.Start, func(t Edit, at int) int { return t.Span.Start - at })
			taken = slices.Insert(taken, i, e)
		}
		applied = append(applied, f)
	}
	if len(applied) == 0 {
		return src, nil
	}
	out := make([]byte, 0, len(src))
	at := 0
	for _, e := range taken {
		out = append(out, src[at:e.Span.Start]...)
		out = append(out, e.NewText...)
		at = e.Span.End
	}
	return append(out, src[at:]...), applied
}

func wellFormed(f *Fix, size int) bool {
	for i, e := range f.Edits {
		if e.Span.Start < 0 || e.Span.Start > e.Span.End || e.Span.End > size {
			return false
		}
		if conflicts(f.Edits[i+1:], []Edit{e}) {
			return false
		}
	}
	return true
}

func firstStart(f *Fix) int {
	first := f.Edits[0].Span.Start
	for _, e := range f.Edits[1:] {
		first = min(first, e.Span.Start)
	}
	return first
}

// conflicts reports whether an edit of es overlaps one of taken (sorted by
// start, never overlapping), or starts where one of them starts: two
// changes at one place have no defined order.
func conflicts(es, taken []Edit) bool {
	for _, a := range es {
		i, found := slices.BinarySearchFunc(taken, a.Span.Start, func(t Edit, at int) int { return t.Span.Start - at })
		if found || i < len(taken) && taken[i].Span.Start < a.Span.End || i > 0 && taken[i-1].Span.End > a.Span.Start {
			return true
		}
	}
	return false
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
