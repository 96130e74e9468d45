package charterfile

import (
	"strings"
	"unicode/utf8"
)

// pi-charter is TypeScript: its parsers use JavaScript regular expressions
// and string methods. These helpers give Go the same character classes, so
// a line upstream matches is a line we match:
//
//   - \s (and String.prototype.trim) is JavaScript whitespace: ASCII
//     whitespace, NBSP, the Unicode space separators, the line and paragraph
//     separators and the BOM (ECMA-262 WhiteSpace and LineTerminator).
//   - . matches anything but a line terminator: LF, CR, U+2028, U+2029. Lines
//     are split on LF only, so a CRLF file keeps a CR at the end of each line
//     and `(.*)$` cannot reach the end of it.
//   - toLowerCase maps only the Kelvin sign to an ASCII letter (U+212A → k);
//     the /i flag without /u folds ASCII letters only.

// isJSSpace reports whether r is in JavaScript's \s.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// isJSLineTerminator reports whether r is one that JavaScript's . does not match.
func isJSLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// jsTrimEnd is String.prototype.trimEnd.
func jsTrimEnd(s string) string { return strings.TrimRightFunc(s, isJSSpace) }

// jsTrimStart is String.prototype.trimStart.
func jsTrimStart(s string) string { return strings.TrimLeftFunc(s, isJSSpace) }

// skipSpace returns the index after the run of JavaScript whitespace that
// starts at i in s.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isJSSpace(r) {
			break
		}
		i += n
	}
	return i
}

// hasLineTerminator reports whether s holds a character . cannot match.
func hasLineTerminator(s string) bool {
	for _, r := range s {
		if isJSLineTerminator(r) {
			return true
		}
	}
	return false
}

// lowerIs reports whether s.toLowerCase() === want for an ASCII lower-case
// want, as JavaScript compares section names and status tokens.
func lowerIs(s, want string) bool {
	i := 0
	for _, r := range s {
		if i >= len(want) {
			return false
		}
		c := want[i]
		switch {
		case r == rune(c), r < utf8.RuneSelf && r|0x20 == rune(c) && c >= 'a' && c <= 'z':
		case r == 0x212A && c == 'k': // KELVIN SIGN lower-cases to k
		default:
			return false
		}
		i++
	}
	return i == len(want)
}

// hasPrefixFold reports whether s starts with the ASCII word prefix, ASCII
// letters compared case-insensitively (the /i flag without /u).
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// splitDepends splits a Depends: value as `.split(/[\s,]+/)` followed by
// trimming and dropping empty strings does, returning each token with its
// byte offset in s.
func splitDepends(s string) (tokens []string, offsets []int) {
	start := -1
	for i, r := range s {
		sep := r == ',' || isJSSpace(r)
		switch {
		case sep && start >= 0:
			tokens, offsets = append(tokens, s[start:i]), append(offsets, start)
			start = -1
		case !sep && start < 0:
			start = i
		}
	}
	if start >= 0 {
		tokens, offsets = append(tokens, s[start:]), append(offsets, start)
	}
	return tokens, offsets
}

// jsSlice40 is `s.slice(0, 40)`: the first 40 UTF-16 code units of s (a
// character outside the BMP counts two).
func jsSlice40(s string) string {
	units := 0
	for i, r := range s {
		n := 1
		if r > 0xFFFF {
			n = 2
		}
		if units+n > 40 {
			return s[:i]
		}
		units += n
	}
	return s
}
