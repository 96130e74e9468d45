package rp1

import (
	"bytes"
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// What goldmark sees of a section body is bounded, so that parsing it costs
// a small constant per byte whatever the text (docs/reliability.md, "The
// cost of parsing").
//
// goldmark's block parser keeps a stack of the open block quotes and list
// items and, for each line, offers the line to each of them; opening one
// measures the line's indentation from its start. A line of 300,000 ">"
// (300 KB) therefore took over a minute, "1. " × 150,000 half a minute,
// and each following line costs the depth of the stack again. Its inline
// parsers are quadratic on other runs (unclosed links, nested brackets,
// unmatched emphasis), but countContent reads only the block structure and
// the raw lines of each paragraph, so the body parser runs no inline parser
// at all (newBodyParser).
//
// Before goldmark, each line's container prefix (the white space, block
// quote markers and list markers it starts with) is bounded: at most
// maxDepth markers, the rest of the prefix dropped, and each run of white
// space in it cut to maxIndent columns. A line then opens at most maxDepth
// blocks, and the blocks a later line can continue are bounded too (a block
// quote needs its marker on the line, a list item indentation up to its
// content, and both are bounded), so the stack never holds more than a few
// dozen blocks.
const (
	// maxDepth is the most block quotes and list items one line opens;
	// deeper markers count as text. Real charters nest a few levels.
	maxDepth = 16
	// maxIndent is the most columns of one run of white space in a line's
	// prefix (a tab counts as 4). Sixteen levels of list indentation count
	// like any deeper nesting; indented code stays indented code.
	maxIndent = 32
)

// Capped says that a section body nested deeper than maxDepth: what was cut
// before goldmark read it.
type Capped struct {
	// Span is the first line's markers past maxDepth.
	Span source.Span
	// Depth is the number of markers that line starts with.
	Depth int
	// Lines is the number of lines cut.
	Lines int
}

// checkCapped reports each section whose body was cut, on the first line
// cut, and each whose markers were not all listed, on the last one listed.
func checkCapped(ch *Charter, f *found) {
	for _, s := range ch.Sections {
		if s.MoreMarkers {
			last := s.Problems[len(s.Problems)-1].Span
			f.addNew(diag.AnalysisCapped, last,
				"%q holds more than %d placeholder markers; %d of them are listed, and the section is partial or empty all the same.",
				s.Heading, maxMarkers, maxMarkers)
		}
		c := s.Capped
		if c == nil {
			continue
		}
		more := ""
		if c.Lines > 1 {
			more = fmt.Sprintf(" (and %d more lines past %d levels)", c.Lines-1, maxDepth)
		}
		f.addNew(diag.AnalysisCapped, c.Span,
			"Block quotes and lists nest %d deep on this line%s; %q is read %d levels deep and the deeper markers as text, so its status is judged from that.",
			c.Depth, more, s.Heading, maxDepth)
	}
}

// boundBody returns body with every line's container prefix bounded, and
// what was cut (spans relative to body; nil when no line nested past
// maxDepth). It copies body only when a line needs a change.
func boundBody(body []byte) ([]byte, *Capped) {
	var out []byte
	var capped *Capped
	for start := 0; start < len(body); {
		end := len(body)
		if i := bytes.IndexByte(body[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := body[start:end]
		depth, cut, change := scanPrefix(line)
		if change && out == nil {
			out = append(make([]byte, 0, len(body)), body[:start]...)
		}
		if out != nil {
			if change {
				out = appendBounded(out, line)
			} else {
				out = append(out, line...)
			}
		}
		if cut >= 0 {
			if capped == nil {
				capped = &Capped{Span: source.Span{Start: start + cut, End: start + markersEnd(line)}, Depth: depth}
			}
			capped.Lines++
		}
		start = end
	}
	if out == nil {
		return body, nil
	}
	return out, capped
}

// scanPrefix reads line's container prefix: the number of markers it holds,
// the offset of the first marker past maxDepth (-1 when none), and whether
// the line needs bounding (too many markers, or a run of white space wider
// than maxIndent).
func scanPrefix(line []byte) (depth, cut int, change bool) {
	cut = -1
	for i := 0; ; {
		j, cols := skipWhite(line, i)
		change = change || cols > maxIndent
		m := markerLen(line[j:])
		if m == 0 {
			return depth, cut, change
		}
		if depth++; depth > maxDepth && cut < 0 {
			cut, change = j, true
		}
		i = j + m
	}
}

// markersEnd is the offset after the last marker of line's container
// prefix (0 when it has none).
func markersEnd(line []byte) int {
	for i := 0; ; {
		j, _ := skipWhite(line, i)
		m := markerLen(line[j:])
		if m == 0 {
			return i
		}
		i = j + m
	}
}

// appendBounded appends line with its prefix bounded: white space runs cut
// to maxIndent columns, markers past maxDepth dropped with the white space
// before them.
func appendBounded(out, line []byte) []byte {
	depth := 0
	for i := 0; ; {
		j, cols := skipWhite(line, i)
		m := markerLen(line[j:])
		if m > 0 {
			if depth++; depth > maxDepth {
				i = j + m
				continue
			}
		}
		if cols > maxIndent {
			out = append(out, spaces[:maxIndent]...)
		} else {
			out = append(out, line[i:j]...)
		}
		if m == 0 {
			return append(out, line[j:]...)
		}
		out = append(out, line[j:j+m]...)
		i = j + m
	}
}

var spaces = bytes.Repeat([]byte(" "), maxIndent)

// skipWhite returns the end of the spaces and tabs at line[i:] and their
// width in columns (a tab counts as 4).
func skipWhite(line []byte, i int) (int, int) {
	cols := 0
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		if line[i] == '\t' {
			cols += 4
		} else {
			cols++
		}
	}
	return i, cols
}

// markerLen is the length of the block quote or list marker s starts with
// (">", "-", "+" or "*" before white space or the line end, 1–9 digits and
// "." or ")" before white space or the line end), or 0. It errs towards
// markers: "* * *" is a thematic break, not three lists, but a line needs
// more than maxDepth of them before that matters.
func markerLen(s []byte) int {
	endsMarker := func(i int) bool {
		return i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'
	}
	if len(s) == 0 {
		return 0
	}
	switch s[0] {
	case '>':
		return 1
	case '-', '+', '*':
		if endsMarker(1) {
			return 1
		}
		return 0
	}
	n := 0
	for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || n == len(s) || (s[n] != '.' && s[n] != ')') || !endsMarker(n+1) {
		return 0
	}
	return n + 1
}

// dropHeadingRuns returns body with the later headings of each run of
// headings and blank lines made blank lines: goldmark builds a node for
// each heading (about 350 bytes; 55 MB for 1 MB of "### Will"), and no
// heading counts. It copies body only when there is one to drop.
//
// A run starts at an ATX heading in column 0 that follows a blank line
// (or starts the body) outside a fenced code block, and goes on over
// column-0 ATX headings and blank lines. Its first heading closes every
// open block (a list item needs its line indented, a block quote its
// marker, and after a blank line no paragraph or HTML block of the kinds
// that end at one is open), so after it nothing is open, and the blocks
// after the run start alike after a heading or a blank line: the later
// headings change nothing goldmark counts (TestDroppingHeadingRunsKeepsCounts).
func dropHeadingRuns(body []byte) []byte {
	var out []byte
	var f codefence.Scanner
	inRun, afterBlank := false, true
	for start := 0; start < len(body); {
		end := len(body)
		if i := bytes.IndexByte(body[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := body[start:end]
		content := bytes.TrimRight(line, "\r\n")
		// Only a line that can open or close a fence is shown to the
		// fence scanner; any other leaves it as it is.
		fenced := f.Open()
		if t := bytes.TrimLeft(content, " "); len(content)-len(t) <= 3 && len(t) > 0 && (t[0] == '`' || t[0] == '~') {
			fenced = f.Step(string(content))
		}
		blank := len(bytes.TrimSpace(content)) == 0
		heading := !fenced && atxHeadingLine(content)
		drop := false
		switch {
		case heading && inRun:
			drop = true
		case heading:
			inRun = afterBlank
		case !blank:
			inRun = false
		}
		if drop && out == nil {
			out = append(make([]byte, 0, len(body)), body[:start]...)
		}
		switch {
		case drop:
			out = append(out, line[len(content):]...) // the line ending only
		case out != nil:
			out = append(out, line...)
		}
		afterBlank = blank && !fenced
		start = end
	}
	if out == nil {
		return body
	}
	return out
}

// atxHeadingLine: line is an ATX heading starting in column 0: one to six
// "#" then a space, a tab or the line's end.
func atxHeadingLine(line []byte) bool {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t')
}
