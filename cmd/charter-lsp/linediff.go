package main

import (
	"bytes"
	"slices"

	"github.com/aymanbagabas/go-udiff"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// lineHistory follows a file's lines through the passes of --fix: origin[i]
// is the line of the original text that line i of the current text still
// is, or -1 for a line a fix wrote. Since the fixes say exactly what they
// changed, --diff needs no general diff of two texts, which for a large
// file is slow (seconds) or coarse (whole regions replaced).
type lineHistory struct {
	original []byte
	origin   []int
}

func newLineHistory(src []byte) *lineHistory {
	h := &lineHistory{original: src, origin: make([]int, len(lineStarts(src)))}
	for i := range h.origin {
		h.origin[i] = i
	}
	return h
}

// lineStarts are the offsets where src's lines start; a final "\n" ends the
// last line rather than starting an empty one, and empty text has no line.
func lineStarts(src []byte) []int {
	if len(src) == 0 {
		return nil
	}
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineAt is the line holding offset off (the last line for the end).
func lineAt(starts []int, off int) int {
	i, found := slices.BinarySearch(starts, off)
	if found {
		return i
	}
	return max(i-1, 0)
}

// apply records a pass that turned src into out with edits (relative to
// src, not overlapping): the lines they touch become lines a fix wrote.
func (h *lineHistory) apply(src, out []byte, edits []diag.Edit) {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b diag.Edit) int { return a.Span.Start - b.Span.Start })
	starts := lineStarts(src)
	if len(starts) == 0 { // every line of out is new
		h.origin = slices.Repeat([]int{-1}, len(lineStarts(out)))
		return
	}
	end := func(line int) int { // where line ends, its "\n" included
		if line+1 < len(starts) {
			return starts[line+1]
		}
		return len(src)
	}
	var origin []int
	next, delta := 0, 0 // the first line not yet copied; out's offset minus src's
	for i := 0; i < len(edits); {
		// An edit touches the lines from its start to its end, the line its
		// end starts included: a deleted line break joins that line to the
		// edit's text.
		first := lineAt(starts, edits[i].Span.Start)
		last := lineAt(starts, edits[i].Span.End)
		blockDelta := len(edits[i].NewText) - edits[i].Span.Len()
		// Edits on the same or overlapping lines form one block.
		j := i + 1
		for ; j < len(edits) && lineAt(starts, edits[j].Span.Start) <= last; j++ {
			last = max(last, lineAt(starts, edits[j].Span.End))
			blockDelta += len(edits[j].NewText) - edits[j].Span.Len()
		}
		origin = append(origin, h.origin[next:first]...)
		from, to := starts[first]+delta, end(last)+delta+blockDelta
		block := out[from:to]
		n := bytes.Count(block, []byte("\n"))
		if len(block) > 0 && block[len(block)-1] != '\n' {
			n++
		}
		origin = append(origin, slices.Repeat([]int{-1}, n)...)
		next, delta, i = last+1, delta+blockDelta, j
	}
	h.origin = append(origin, h.origin[next:]...)
}

// unified is the unified diff from the original text to final, the text
// after every recorded pass.
func (h *lineHistory) unified(from, to string, final []byte) (string, error) {
	orig, fin := lineStarts(h.original), lineStarts(final)
	at := func(starts []int, text []byte, line int) int {
		if line < len(starts) {
			return starts[line]
		}
		return len(text)
	}
	var edits []udiff.Edit
	kept := -1 // the last original line kept
	for i := 0; i <= len(h.origin); {
		j := i
		for j < len(h.origin) && h.origin[j] < 0 {
			j++
		}
		nextKept := len(orig)
		if j < len(h.origin) {
			nextKept = h.origin[j]
		}
		if j > i || nextKept > kept+1 {
			edits = append(edits, udiff.Edit{
				Start: at(orig, h.original, kept+1), End: at(orig, h.original, nextKept),
				New: string(final[at(fin, final, i):at(fin, final, j)]),
			})
		}
		if j == len(h.origin) {
			break
		}
		kept, i = nextKept, j+1
	}
	return udiff.ToUnified(from, to, string(h.original), edits, udiff.DefaultContextLines)
}
