package pi

import (
	"unicode"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// line is one line of a document as upstream sees it: upstream splits on
// /\r?\n/, so a lone "\r" stays inside the line.
type line struct {
	start, end int // content, without the "\n" or "\r\n" terminator
	next       int // start of the following line
}

func (l line) span() source.Span { return source.Span{Start: l.start, End: l.end} }

// splitLines splits src[from:to] into lines. The range always yields at
// least one (possibly empty) line, as JavaScript's split does.
func splitLines(src []byte, from, to int) []line {
	var out []line
	start := from
	for i := from; i < to; i++ {
		if src[i] != '\n' {
			continue
		}
		end := i
		if end > start && src[end-1] == '\r' {
			end--
		}
		out = append(out, line{start, end, i + 1})
		start = i + 1
	}
	return append(out, line{start, to, to})
}

// isJSSpace reports whether r is whitespace for JavaScript's \s and trim().
func isJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isJSLineTerminator reports whether r ends a line for JavaScript's "." and "$".
func isJSLineTerminator(r rune) bool { return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 }

// trimSpan shrinks s to exclude leading and trailing JavaScript whitespace.
func trimSpan(src []byte, s source.Span) source.Span {
	for s.Start < s.End {
		r, n := utf8.DecodeRune(src[s.Start:s.End])
		if !isJSSpace(r) {
			break
		}
		s.Start += n
	}
	for s.End > s.Start {
		r, n := utf8.DecodeLastRune(src[s.Start:s.End])
		if !isJSSpace(r) {
			break
		}
		s.End -= n
	}
	return s
}

// skipSpace returns the offset after the JavaScript whitespace that starts at off.
func skipSpace(src []byte, off, end int) int {
	for off < end {
		r, n := utf8.DecodeRune(src[off:end])
		if !isJSSpace(r) {
			break
		}
		off += n
	}
	return off
}

// hasLineTerminator reports whether b holds a character JavaScript's "."
// refuses to match; such text fails upstream's single-line regexps.
func hasLineTerminator(b []byte) bool {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if isJSLineTerminator(r) {
			return true
		}
		i += n
	}
	return false
}

func hasNonTerminator(b []byte) bool {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if !isJSLineTerminator(r) {
			return true
		}
		i += n
	}
	return false
}

// heading matches upstream's /^#{level}\s+(.+?)\s*$/ on one line and
// returns the span of the captured (and then trimmed) text. ok is false when
// the line is not such a heading. The text may be empty when the heading
// holds only whitespace; upstream then treats the heading as absent.
func heading(src []byte, l line, level int) (text source.Span, ok bool) {
	if l.end-l.start < level+1 {
		return source.Span{}, false
	}
	for i := 0; i < level; i++ {
		if src[l.start+i] != '#' {
			return source.Span{}, false
		}
	}
	r, _ := utf8.DecodeRune(src[l.start+level : l.end])
	if !isJSSpace(r) {
		return source.Span{}, false
	}
	// (.+?) needs one character that is not a line terminator; \s+ may give
	// back whitespace to it, so "##  " still matches with empty trimmed text.
	rest := source.Span{Start: l.start + level, End: l.end}
	t := trimSpan(src, rest)
	if hasLineTerminator(src[t.Start:t.End]) {
		return source.Span{}, false
	}
	if t.Len() == 0 {
		// Only whitespace: (.+?) must still capture one character after the
		// first, and "." refuses line terminators.
		_, first := utf8.DecodeRune(src[rest.Start:rest.End])
		if !hasNonTerminator(src[rest.Start+first : rest.End]) {
			return source.Span{}, false
		}
		return source.Span{Start: rest.End, End: rest.End}, true
	}
	return t, true
}

// isLetter reports an ASCII letter, as in upstream's [A-Za-z].
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// normalizeKey lower-cases, trims and collapses whitespace, as upstream's
// normalizeHeading does.
func normalizeKey(b []byte) string {
	out := make([]byte, 0, len(b))
	space := false
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		i += n
		if isJSSpace(r) {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		if r < utf8.RuneSelf {
			c := byte(r)
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
			continue
		}
		out = utf8.AppendRune(out, unicode.ToLower(r))
	}
	return string(out)
}
