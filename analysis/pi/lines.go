package pi

import (
	"bytes"
	"strings"
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
	out := make([]line, 0, bytes.Count(src[from:to], []byte("\n"))+1)
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
// normalizeHeading does: value.trim().toLowerCase().replace(/\s+/g, " ").
func normalizeKey(b []byte) string {
	if key, ok := normalizeASCIIKey(b); ok {
		return key
	}
	return normalizeAnyKey(b)
}

// normalizeASCIIKey is normalizeKey of an ASCII key in one pass and, for
// a key upstream reads (KnownKeys), without an allocation: every field
// line of every VAL has its key normalized. ok is false for a key with
// other characters, and for a long one.
func normalizeASCIIKey(b []byte) (key string, ok bool) {
	var room [64]byte
	out := room[:0]
	space := false
	for _, c := range b {
		switch {
		case c >= utf8.RuneSelf || len(out) == len(room):
			return "", false
		case isJSSpace(rune(c)):
			space = len(out) > 0
			continue
		case space:
			out = append(out, ' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	for _, k := range KnownKeys {
		if string(out) == k {
			return k, true
		}
	}
	return string(out), true
}

// normalizeAnyKey is normalizeKey of any key.
func normalizeAnyKey(b []byte) string {
	lower := jsLower(string(b))
	out := make([]byte, 0, len(lower))
	space := false
	for _, r := range lower {
		if isJSSpace(r) {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}

// jsLower is JavaScript's String.prototype.toLowerCase: Unicode's default
// full lower-casing, which differs from Go's per-rune mapping in two places:
// 'İ' becomes "i̇" (two code points), and a capital sigma at the end of a
// word becomes 'ς'. So "READİNESS" is not "readiness" to upstream.
func jsLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3a3 && finalSigma(rs, i):
			b.WriteRune(0x3c2)
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is Unicode's Final_Sigma condition for rs[i]: a cased letter
// before it and none after it, skipping case-ignorable characters.
func finalSigma(rs []rune, i int) bool {
	before := false
	for j := i - 1; j >= 0; j-- {
		if caseIgnorable(rs[j]) {
			continue
		}
		before = cased(rs[j])
		break
	}
	if !before {
		return false
	}
	for j := i + 1; j < len(rs); j++ {
		if caseIgnorable(rs[j]) {
			continue
		}
		return !cased(rs[j])
	}
	return true
}

func cased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xb7, 0x387, 0x5f4, 0x2018, 0x2019, 0x2024, 0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
