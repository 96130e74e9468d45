package source

import (
	"bytes"
	"strings"
)

// Line endings of inserted text. A file keeps the line ending it was
// written with: text inserted into it uses the file's own.

// LineEnding is src's line ending: "\r\n" when its first line ends in CRLF,
// else "\n" (also for text with no line end at all).
func LineEnding(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// LineEndingAt is the line ending of the line that ends at off, for text
// inserted there: "\r\n" when one follows off, else "\n"; at the end of src
// (the last line, which ends in none) src's own (LineEnding).
func LineEndingAt(src []byte, off int) string {
	switch {
	case off >= len(src):
		return LineEnding(src)
	case bytes.HasPrefix(src[off:], []byte("\r\n")):
		return "\r\n"
	}
	return "\n"
}

// WithLineEnding is s with every line end ("\n" or "\r\n") written as nl.
func WithLineEnding(s, nl string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if nl == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", nl)
}
