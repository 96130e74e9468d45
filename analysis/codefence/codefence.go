// Package codefence is CommonMark's fenced code block read line by line
// (spec 0.31, section 4.5): the one answer to "is this line code?" that
// the charter readers share — rp1's sections and markers, the .charters
// checks that explain what pi-charter (which knows no fences) does with
// fenced lines, and migration's copies of text.
package codefence

import "strings"

// Fence is the line that opened a fenced code block: its character (a
// backtick or a tilde) and how many of them.
type Fence struct {
	Char byte
	Len  int
}

// Opening reports whether line opens a fenced code block: at most three
// spaces of indentation, then a run of at least three backticks or
// tildes; after backticks, an info string without a backtick. Four spaces
// make an indented code line, never a fence.
func Opening(line string) (Fence, bool) {
	s, ok := trimIndent(line)
	if !ok {
		return Fence{}, false
	}
	c, n := run(s)
	if n < 3 || (c == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return Fence{}, false
	}
	return Fence{Char: c, Len: n}, true
}

// Opens reports whether line opens a fenced code block (Opening). A line
// that closes one has the same shape, so it also tells a fence's line from
// text.
func Opens(line string) bool {
	_, ok := Opening(line)
	return ok
}

// ClosedBy reports whether line closes the block f opened: at most three
// spaces, a run of f's character at least as long, then only white space.
func (f Fence) ClosedBy(line string) bool {
	s, ok := trimIndent(line)
	if !ok {
		return false
	}
	c, n := run(s)
	return n > 0 && c == f.Char && n >= f.Len && strings.TrimSpace(s[n:]) == ""
}

// Closer is the line that closes f.
func (f Fence) Closer() string { return strings.Repeat(string(f.Char), f.Len) }

// Scanner follows fenced code through lines read in order.
type Scanner struct {
	fence Fence
	open  bool
}

// Step reads the next line and reports whether it belongs to a fenced code
// block, the lines that open and close it included.
func (s *Scanner) Step(line string) bool {
	if s.open {
		s.open = !s.fence.ClosedBy(line)
		return true
	}
	s.fence, s.open = Opening(line)
	return s.open
}

// Open reports whether the lines read so far leave a block open.
func (s *Scanner) Open() bool { return s.open }

// Fence is the fence that opened the block left open (see Open).
func (s *Scanner) Fence() Fence { return s.fence }

// trimIndent drops up to three leading spaces; ok is false for four or
// more (an indented code line).
func trimIndent(line string) (string, bool) {
	n := 0
	for n < len(line) && line[n] == ' ' {
		if n++; n == 4 {
			return "", false
		}
	}
	return line[n:], true
}

// run is the backtick or tilde at the start of s and how many times it
// repeats; 0 when s starts with neither.
func run(s string) (byte, int) {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return 0, 0
	}
	n := 1
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return s[0], n
}
