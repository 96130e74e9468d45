package charterfile

import (
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// text is charter.md as every pi-charter parser sees it: HTML comments
// replaced by the newlines they held, then split on LF only (a CR stays at
// the end of its line). Stripping keeps line numbers, so line i of the
// stripped text is line i of the file; within a line, offset maps a stripped
// position back to the file.
//
// Upstream (charter-file.ts, every version) strips with
// text.replace(/<!--[\s\S]*?-->/g, m => m.replace(/[^\n]/g, "")): the first
// "-->" after each "<!--" closes it, comments inside code fences are stripped
// too, and an unclosed "<!--" is kept as text.
type text struct {
	src    []byte
	s      string  // the stripped text
	lines  []span  // each line of s, in s's offsets, without its LF
	cuts   []cut   // where stripping removed bytes, in order
	fence  []fence // fenced code blocks, by stripped line
	fenced []bool  // fenced[i]: line i is in a fenced code block
}

// span is a half-open range of offsets into the stripped text.
type span struct{ start, end int }

// cut records that the stripped offset at maps to the file offset orig;
// offsets from at up to the next cut map linearly.
type cut struct{ at, orig int }

// fence is a fenced code block: the lines from open to close inclusive.
// An unclosed fence runs to the last line.
type fence struct {
	open, close int
	closed      bool
}

func newText(src []byte) *text {
	t := &text{src: src}
	s := string(src)
	t.cuts = append(t.cuts, cut{0, 0})
	if !strings.Contains(s, "<!--") {
		t.s = s // no comment: the text is the file, not copied twice
	} else {
		var b strings.Builder
		b.Grow(len(src))
		for i := 0; i < len(s); {
			j := strings.Index(s[i:], "<!--")
			if j < 0 {
				b.WriteString(s[i:])
				break
			}
			j += i
			k := strings.Index(s[j+4:], "-->")
			if k < 0 {
				b.WriteString(s[i:]) // an unclosed comment is text
				break
			}
			end := j + 4 + k + 3
			b.WriteString(s[i:j])
			// Keep each newline of the comment, mapped to its own position.
			for p := j; p < end; p++ {
				if s[p] == '\n' {
					t.cuts = append(t.cuts, cut{b.Len(), p})
					b.WriteByte('\n')
				}
			}
			t.cuts = append(t.cuts, cut{b.Len(), end})
			i = end
		}
		t.s = b.String()
	}
	t.lines = make([]span, 0, strings.Count(t.s, "\n")+1)
	start := 0
	for i := 0; i < len(t.s); i++ {
		if t.s[i] == '\n' {
			t.lines = append(t.lines, span{start, i})
			start = i + 1
		}
	}
	t.lines = append(t.lines, span{start, len(t.s)})
	t.fence = findFences(t)
	t.fenced = make([]bool, len(t.lines))
	for _, f := range t.fence {
		for i := f.open; i <= f.close; i++ {
			t.fenced[i] = true
		}
	}
	return t
}

// line returns stripped line i.
func (t *text) line(i int) string { return t.s[t.lines[i].start:t.lines[i].end] }

// n is the number of lines ("a\n" has two: "a" and "").
func (t *text) n() int { return len(t.lines) }

// offset maps a stripped offset to the file.
func (t *text) offset(at int) int {
	// The last cut at or before at.
	lo, hi := 0, len(t.cuts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.cuts[mid].at <= at {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	c := t.cuts[lo]
	return c.orig + at - c.at
}

// span maps stripped offsets [a, b) to a file span. The end maps from the
// last byte included, so a comment right after the range stays outside it.
func (t *text) span(a, b int) source.Span {
	start := t.offset(a)
	if b <= a {
		return source.Span{Start: start, End: start}
	}
	return source.Span{Start: start, End: t.offset(b-1) + 1}
}

// lineSpan is the file span of stripped line i, without its LF.
func (t *text) lineSpan(i int) source.Span {
	return t.span(t.lines[i].start, t.lines[i].end)
}

// lineContentSpan is lineSpan without a trailing CR.
func (t *text) lineContentSpan(i int) source.Span {
	l := t.lines[i]
	end := l.end
	if end > l.start && t.s[end-1] == '\r' {
		end--
	}
	return t.span(l.start, end)
}

// linesSpan covers stripped lines a through b-1 (b > a), without the last LF.
func (t *text) linesSpan(a, b int) source.Span {
	if b <= a {
		return t.span(t.lines[a].start, t.lines[a].start)
	}
	return t.span(t.lines[a].start, t.lines[b-1].end)
}

// at is the file span of bytes [i, j) of stripped line n.
func (t *text) at(n, i, j int) source.Span {
	base := t.lines[n].start
	return t.span(base+i, base+j)
}

// body is the span and trimmed text of lines [a, b): the lines joined
// with LF, as lines.slice(a, b).join("\n").trim().
func (t *text) body(a, b int) (source.Span, string) {
	if b <= a {
		at := t.lines[a-1].end
		return t.span(at, at), ""
	}
	s := t.s[t.lines[a].start:t.lines[b-1].end]
	return t.span(t.lines[a].start, t.lines[b-1].end), jsTrim(s)
}

// inFence reports whether line i is inside a fenced code block (the fence
// lines included). No pi parser knows fences; checks use this to explain
// what upstream does with the lines in them.
func (t *text) inFence(i int) bool { return t.fenced[i] }

// findFences finds the fenced code blocks (codefence: CommonMark's rule).
func findFences(t *text) []fence {
	var out []fence
	var s codefence.Scanner
	open := -1
	for i := 0; i < t.n(); i++ {
		if !s.Step(t.line(i)) {
			continue
		}
		switch {
		case open < 0:
			open = i
		case !s.Open():
			out = append(out, fence{open, i, true})
			open = -1
		}
	}
	if open >= 0 {
		out = append(out, fence{open, t.n() - 1, false})
	}
	return out
}
