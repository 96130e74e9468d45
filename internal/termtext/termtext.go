// Package termtext makes text from a repository safe to print to a
// terminal. A charter, a state.json or a file name may hold escape
// sequences (ESC [, OSC, the 8-bit C1 controls) that a terminal obeys:
// recolour, clear the screen, retitle the window, plant a hyperlink or
// write the clipboard (OSC 52). Escape shows each such character as a Go
// escape instead, as check's quoted messages already do.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every control character except newline and tab
// (C0, DEL, C1) and every byte that is not UTF-8 written as a visible
// escape: ESC becomes `\x1b`, U+009B `\u009b`. Other text is unchanged;
// s comes back as is when it holds nothing to escape.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 && r == utf8.RuneError || control(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case n == 1 && r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case control(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case control(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// control reports whether r is a control character a terminal may act on;
// newline and tab are layout, kept.
func control(r rune) bool {
	return r != '\n' && r != '\t' && (r < 0x20 || r >= 0x7f && r <= 0x9f)
}
