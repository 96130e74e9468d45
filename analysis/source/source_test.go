package source

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPositionRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		src  string
		off  int
		want Position
	}{
		{"start", "abc", 0, Position{0, 0}},
		{"ascii", "abc\ndef", 5, Position{1, 1}},
		{"crlf line start", "ab\r\ncd", 4, Position{1, 0}},
		{"crlf inside terminator clamps", "ab\r\ncd", 3, Position{0, 2}},
		{"lone cr", "ab\rcd", 4, Position{1, 1}},
		{"two-byte rune", "é!", 2, Position{0, 1}},
		{"astral rune is two units", "😀x", 4, Position{0, 2}},
		{"cjk", "日本語x", 9, Position{0, 3}},
		{"end of doc", "a\n", 2, Position{1, 0}},
		{"past end clamps", "ab", 10, Position{0, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ix := NewIndex([]byte(c.src))
			got := ix.Position(c.off)
			if got != c.want {
				t.Fatalf("Position(%d) = %+v, want %+v", c.off, got, c.want)
			}
		})
	}
}

func TestOffset(t *testing.T) {
	src := "# Ünïcödé 😀 title\r\nsecond line\nthird"
	ix := NewIndex([]byte(src))
	for off := 0; off <= len(src); off++ {
		p := ix.Position(off)
		back := ix.Offset(p)
		if back > off {
			t.Fatalf("Offset(Position(%d)) = %d: maps forward", off, back)
		}
		if ix.Position(back) != p {
			t.Fatalf("offset %d: position %+v does not round trip via %d", off, p, back)
		}
	}
	if got := ix.Offset(Position{Line: 0, Character: 10}); src[got:got+4] != "😀" {
		t.Fatalf("column 10 should point at the emoji, got offset %d", got)
	}
	// Column inside a surrogate pair stays before the pair.
	if got := ix.Offset(Position{Line: 0, Character: 11}); src[got:got+4] != "😀" {
		t.Fatalf("column inside surrogate pair: got offset %d", got)
	}
	if got := ix.Offset(Position{Line: 0, Character: 999}); got != ix.LineEnd(0) {
		t.Fatalf("column past end should clamp to line end before CRLF, got %d", got)
	}
	if got := ix.Offset(Position{Line: 99}); got != len(src) {
		t.Fatalf("line past end should clamp to doc end, got %d", got)
	}
	if ix.LineCount() != 3 {
		t.Fatalf("LineCount = %d, want 3", ix.LineCount())
	}
	if got := string(src[ix.LineStart(1):ix.LineEnd(1)]); got != "second line" {
		t.Fatalf("line 1 = %q", got)
	}
}

func TestInvalidUTF8(t *testing.T) {
	ix := NewIndex([]byte("a\xffb"))
	if p := ix.Position(3); p.Character != 3 {
		t.Fatalf("invalid byte should count as one unit, got %+v", p)
	}
	if off := ix.Offset(Position{0, 2}); off != 2 {
		t.Fatalf("Offset = %d, want 2", off)
	}
}

func FuzzIndex(f *testing.F) {
	f.Add("a\r\nb😀\rc\n", 3, 2)
	f.Fuzz(func(t *testing.T, s string, line, char int) {
		ix := NewIndex([]byte(s))
		off := ix.Offset(Position{Line: line, Character: char})
		if off < 0 || off > len(s) {
			t.Fatalf("offset %d out of bounds", off)
		}
		p := ix.Position(off)
		if ix.Offset(p) != off {
			t.Fatalf("round trip: %d -> %+v -> %d", off, p, ix.Offset(p))
		}
	})
}

// NewIndex finds "\n"-only text's lines with a vectorised search; the line
// starts must be those a byte-by-byte scan finds, with and without "\r".
func TestNewIndexMatchesByteScan(t *testing.T) {
	scan := func(src []byte) []int {
		lines := []int{0}
		for i := 0; i < len(src); i++ {
			switch src[i] {
			case '\n':
				lines = append(lines, i+1)
			case '\r':
				if i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				lines = append(lines, i+1)
			}
		}
		return lines
	}
	pieces := []string{"a", "é", "\n", "\n\n", "\r\n", "\r", "### VAL-A-1 — ✓ x"}
	seed := uint32(1)
	for n := range 3000 {
		var src []byte
		for range n % 40 {
			seed = seed*1664525 + 1013904223
			p := pieces[int(seed>>16)%len(pieces)]
			if n%2 == 0 && p[0] == '\r' {
				p = "\n" // half the cases have no "\r" at all
			}
			src = append(src, p...)
		}
		got, want := NewIndex(src).lines, scan(src)
		if len(got) != len(want) {
			t.Fatalf("%q: lines %v, want %v", src, got, want)
		}
		for i := range got {
			if int(got[i]) != want[i] {
				t.Fatalf("%q: lines %v, want %v", src, got, want)
			}
		}
	}
}

// On a line longer than markEvery, Position starts decoding from the mark
// before the offset; the column must be the one decoding the whole line
// gives, at every offset, whatever characters straddle the marks (2-, 3-
// and 4-byte characters, invalid bytes, surrogate pairs).
func TestPositionOnLongLinesMatchesDecodingFromTheStart(t *testing.T) {
	pieces := []string{"a", "é", "✓", "😀", "\xff", "\xe2\x9c", "bc"}
	seed := uint32(7)
	for n := range 40 {
		var line []byte
		for len(line) < 3*markEvery+n*37 {
			seed = seed*1664525 + 1013904223
			line = append(line, pieces[int(seed>>16)%len(pieces)]...)
		}
		src := append(append([]byte("x\n"), line...), "\nend"...)
		ix := NewIndex(src)
		// Every offset, in an order that does not favour a cache: from the
		// end backwards, then forwards.
		for _, off := range append(offsetsDown(len(line)), offsetsUp(len(line))...) {
			got := ix.Position(2 + off)
			want := Position{Line: 1, Character: utf16Len(line, off)}
			if got != want {
				t.Fatalf("line of %d bytes, offset %d: %+v, want %+v", len(line), off, got, want)
			}
		}
	}
}

func offsetsDown(n int) []int {
	out := make([]int, 0, n+1)
	for i := n; i >= 0; i-- {
		out = append(out, i)
	}
	return out
}

func offsetsUp(n int) []int {
	out := make([]int, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, i)
	}
	return out
}

// Range is the two positions of its span, however the span lies: on one
// line, across lines, backwards, past either end, on CRLF and multi-byte
// text.
func TestRangeIsItsPositions(t *testing.T) {
	src := []byte("# Title\r\n\r\n## m1 é — ✓\nVerifier: command\n\n### VAL-A-001 😀 x\r\nlast line without end")
	ix := NewIndex(src)
	for start := -2; start <= len(src)+2; start++ {
		for end := start - 3; end <= len(src)+2; end++ {
			s := Span{Start: start, End: end}
			if got, want := ix.Range(s), (Range{Start: ix.Position(start), End: ix.Position(end)}); got != want {
				t.Fatalf("Range(%v) = %v, want %v", s, got, want)
			}
		}
	}
}

// EachLine yields the lines NewIndex counts, each without its terminator,
// and stops when told.
func TestEachLineMatchesIndex(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "\n", "a\nb", "a\r\nb\r\n", "a\rb", "a\r", "\r\n\r\n",
		"a\n\rb", "a\r\r\nb", "x\ny\r\nz\rw\n\n", "é\r\n\u2028x"} {
		ix := NewIndex([]byte(src))
		var got []Span
		EachLine([]byte(src), func(s Span) bool { got = append(got, s); return true })
		if len(got) != ix.LineCount() {
			t.Errorf("%q: %d lines, NewIndex counts %d", src, len(got), ix.LineCount())
			continue
		}
		for l, s := range got {
			if want := ix.LineSpan(l); s != want {
				t.Errorf("%q line %d: %v, NewIndex says %v", src, l, s, want)
			}
		}
		n := 0
		EachLine([]byte(src), func(Span) bool { n++; return false })
		if n != 1 {
			t.Errorf("%q: %d calls after the first said stop", src, n-1)
		}
	}
}

// A Locator gives Index.Range's answer for every span, whatever their
// order (in order, as a file's diagnostics mostly come, or not), past the
// ends of the text and reversed.
func TestLocatorMatchesRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 26))
	for _, text := range []string{"", "x", "\n", "a\nb", "a\r\nb\r\n", "é🚀\n\nline three\r\n\rlast", strings.Repeat("ab\ncd é\r\n", 200) + strings.Repeat("y", 700)} {
		ix := NewIndex([]byte(text))
		loc := ix.Locator()
		off := 0
		for i := range 400 {
			if i%5 == 4 {
				off = r.IntN(len(text) + 3) // anywhere
			} else {
				off += r.IntN(20) // onwards
			}
			s := Span{Start: off - r.IntN(3), End: off + r.IntN(40) - 2}
			if got, want := loc.Range(s), ix.Range(s); got != want {
				t.Fatalf("text %q, span %v: locator %v, Range %v", text, s, got, want)
			}
		}
	}
}
