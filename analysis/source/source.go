// Package source maps byte offsets in a document to LSP positions and back.
//
// It is the one position mapper of charter-lsp: every parser records byte
// spans, and only this package turns them into LSP positions (0-based lines,
// UTF-16 code units), so non-ASCII text and CRLF line endings are handled in
// exactly one place.
package source

import (
	"bytes"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Position is an LSP position: a 0-based line and a 0-based column counted in
// UTF-16 code units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open LSP range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Span is a half-open byte range [Start, End) in a document.
type Span struct {
	Start int
	End   int
}

// Len is the span's length in bytes.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether off lies in the span; an empty span contains its start.
func (s Span) Contains(off int) bool {
	return off >= s.Start && (off < s.End || (s.Start == s.End && off == s.Start))
}

// Shift returns the span moved by delta bytes.
func (s Span) Shift(delta int) Span { return Span{s.Start + delta, s.End + delta} }

// Index is a line index of one document version. It is immutable once built.
type Index struct {
	src []byte
	// lines holds the byte offset where each line starts; 32 bits are
	// enough (a document is at most a 64 MB frame, a file read at most
	// vfs.MaxFileSize), and half the memory of a keystroke's copy.
	lines []uint32
	// marks holds, for each line longer than markEvery bytes that a
	// position was asked in, the UTF-16 column every markEvery bytes
	// ([]mark by line number), so that locating a diagnostic decodes at
	// most markEvery bytes however long its line: 100,000 diagnostics on
	// one 1 MB line used to decode the line from its start for each.
	marks sync.Map
	// found are the offsets Find found (find.go).
	found finds
}

// markEvery is the distance between marks on a long line.
const markEvery = 256

// mark is a character boundary on a line (at or just after a multiple of
// markEvery) and the UTF-16 code units before it.
type mark struct{ off, units int }

// NewIndex indexes src. Lines end at "\n", "\r\n" or a lone "\r", as in LSP.
func NewIndex(src []byte) *Index {
	// Sized once from the line breaks (a vectorised count): guessing a
	// line per 32 bytes and growing grew it four times for a file of short
	// lines (1 MB of "### Will": 3.5 MB allocated for a 0.9 MB list).
	crs := bytes.Count(src, []byte{'\r'})
	lines := make([]uint32, 1, 1+bytes.Count(src, []byte{'\n'})+crs)
	if crs == 0 {
		// The usual text: only "\n" ends lines, and a vectorised search
		// (bytes.IndexByte) finds them in half the time of looking at
		// every byte (1.2 ms instead of 2.5 ms on the 1.7 MB register).
		for i := 0; ; {
			n := bytes.IndexByte(src[i:], '\n')
			if n < 0 {
				return &Index{src: src, lines: lines}
			}
			i += n + 1
			lines = append(lines, uint32(i))
		}
	}
	// A "\r" among the breaks: EachLine's reading of them, each line
	// after the first starting where the one before ended.
	EachLine(src, func(l Span) bool {
		if l.Start > 0 {
			lines = append(lines, uint32(l.Start))
		}
		return true
	})
	return &Index{src: src, lines: lines}
}

// EachLine calls fn with the span of each line's content in src, its
// terminator left out: the lines NewIndex counts, one by one, until fn
// returns false. It builds no index, for a reader that goes through the
// lines once and maps no offset.
func EachLine(src []byte, fn func(Span) bool) {
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			if !fn(Span{start, i}) {
				return
			}
			start = i + 1
		case '\r':
			end := i
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			if !fn(Span{start, end}) {
				return
			}
			start = i + 1
		}
	}
	fn(Span{start, len(src)})
}

// Source is the indexed text.
func (ix *Index) Source() []byte { return ix.src }

// LineCount is the number of lines; an empty document has one.
func (ix *Index) LineCount() int { return len(ix.lines) }

// LineStart is the byte offset of the start of line (clamped to the document).
func (ix *Index) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(ix.lines) {
		return len(ix.src)
	}
	return ix.start(line)
}

// start is where line, one of the index's, starts.
func (ix *Index) start(line int) int { return int(ix.lines[line]) }

// LineEnd is the byte offset of the end of line's content, before its terminator.
func (ix *Index) LineEnd(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(ix.lines) {
		return len(ix.src)
	}
	end := len(ix.src)
	if line+1 < len(ix.lines) {
		end = ix.start(line + 1)
	}
	for start := ix.start(line); end > start && (ix.src[end-1] == '\n' || ix.src[end-1] == '\r'); {
		end--
	}
	return end
}

// LineSpan is the span of line's content without its terminator.
func (ix *Index) LineSpan(line int) Span { return Span{ix.LineStart(line), ix.LineEnd(line)} }

// Line is the 0-based line holding byte offset off (clamped).
func (ix *Index) Line(off int) int {
	if off <= 0 {
		return 0
	}
	if off > len(ix.src) {
		off = len(ix.src)
	}
	return ix.lastStartingBy(0, len(ix.lines)-1, off)
}

// lastStartingBy is the last line from lo to hi that starts at or before
// off, lines[lo] being at or before it.
func (ix *Index) lastStartingBy(lo, hi, off int) int {
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ix.start(mid) <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Position converts a byte offset to an LSP position. An offset inside a
// multi-byte character or a line terminator maps to the nearest preceding
// valid column.
func (ix *Index) Position(off int) Position {
	if off < 0 {
		off = 0
	}
	if off > len(ix.src) {
		off = len(ix.src)
	}
	return ix.positionOn(ix.Line(off), off)
}

// positionOn is Position of off, an offset within the source, on line, the
// line off is on.
func (ix *Index) positionOn(line, off int) Position {
	start := ix.start(line)
	end := ix.LineEnd(line)
	if off > end {
		off = end
	}
	return Position{Line: line, Character: ix.column(line, ix.src[start:end], off-start)}
}

// column is utf16Len(text, limit) for line, from the nearest mark on a long
// line.
func (ix *Index) column(line int, text []byte, limit int) int {
	if len(text) <= markEvery {
		return utf16Len(text, limit)
	}
	var ms []mark
	if v, ok := ix.marks.Load(line); ok {
		ms = v.([]mark)
	} else {
		ms = lineMarks(text)
		ix.marks.Store(line, ms)
	}
	j := min(limit/markEvery, len(ms)-1)
	for j > 0 && ms[j].off > limit {
		j--
	}
	return ms[j].units + utf16Len(text[ms[j].off:], limit-ms[j].off)
}

// lineMarks decodes text as utf16Len does, noting the first character
// boundary at or after each multiple of markEvery.
func lineMarks(text []byte) []mark {
	ms := make([]mark, 1, len(text)/markEvery+1)
	units := 0
	for i := 0; i < len(text); {
		size, n := 1, 1
		if c := text[i]; c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRune(text[i:])
			n = runeUnits(r)
		}
		i += size
		units += n
		if i >= len(ms)*markEvery && i < len(text) {
			ms = append(ms, mark{i, units})
		}
	}
	return ms
}

// Offset converts an LSP position to a byte offset. Lines past the end clamp
// to the end of the document; columns past the end of a line clamp to the end
// of its content (as the LSP spec asks).
func (ix *Index) Offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(ix.lines) {
		return len(ix.src)
	}
	off := ix.start(p.Line)
	end := ix.LineEnd(p.Line)
	units := 0
	for off < end && units < p.Character {
		r, size := utf8.DecodeRune(ix.src[off:end])
		n := 1
		if r >= 0x10000 && r != utf8.RuneError {
			n = 2
		}
		if units+n > p.Character {
			break // column points inside a surrogate pair: stay before it
		}
		units += n
		off += size
	}
	return off
}

// Range converts a byte span to an LSP range.
func (ix *Index) Range(s Span) Range {
	start := ix.Position(s.Start)
	// Most spans end on the line they start on: that line is not searched
	// for again.
	if l := start.Line; s.End >= ix.start(l) && s.End <= len(ix.src) && (l+1 == len(ix.lines) || s.End < ix.start(l+1)) {
		return Range{Start: start, End: ix.positionOn(l, s.End)}
	}
	return Range{Start: start, End: ix.Position(s.End)}
}

// A Locator converts spans to ranges as Index.Range does, for spans that
// come mostly in the order of the text (a file's diagnostics): each line
// is looked for from the line of the span before, a step or two on, not
// by a search of the whole file. The zero value of line is the first.
type Locator struct {
	ix   *Index
	line int
}

// Locator returns a Locator of ix.
func (ix *Index) Locator() *Locator { return &Locator{ix: ix} }

// Range is Index.Range of s.
func (l *Locator) Range(s Span) Range {
	ix := l.ix
	start := ix.clamp(s.Start)
	l.line = ix.lineFrom(l.line, start)
	r := Range{Start: ix.positionOn(l.line, start)}
	end := ix.clamp(s.End)
	if end >= start {
		// Most spans end on the line they start on.
		r.End = ix.positionOn(ix.lineFrom(l.line, end), end)
	} else {
		r.End = ix.Position(end)
	}
	return r
}

// Line is Index.Line of off, looked for from the line of the span before.
func (l *Locator) Line(off int) int {
	l.line = l.ix.lineFrom(l.line, l.ix.clamp(off))
	return l.line
}

// Down is r moved lines lines down (up when negative), its columns kept.
func (r Range) Down(lines int) Range {
	r.Start.Line += lines
	r.End.Line += lines
	return r
}

// clamp is off within the source, as Position takes it.
func (ix *Index) clamp(off int) int { return min(max(off, 0), len(ix.src)) }

// lineFrom is Line(off) for off within the source, looked for from line
// hint onwards when off is at or after its start: galloping (1, 2, 4 …
// lines on) to a bound, then a binary search below it.
func (ix *Index) lineFrom(hint, off int) int {
	n := len(ix.lines)
	if hint <= 0 || hint >= n || ix.start(hint) > off {
		return ix.Line(off)
	}
	lo, step := hint, 1 // lines[lo] <= off
	for lo+step < n && ix.start(lo+step) <= off {
		lo += step
		step *= 2
	}
	// lines[lo+step] > off, or lo+step is past the last line.
	return ix.lastStartingBy(lo, min(lo+step, n)-1, off)
}

// Span converts an LSP range to a byte span.
func (ix *Index) Span(r Range) Span {
	return Span{Start: ix.Offset(r.Start), End: ix.Offset(r.End)}
}

// utf16Len counts the UTF-16 code units of the characters of line that end
// at or before byte limit, so an offset inside a character snaps back to its
// start. Invalid bytes count as one replacement character each, as editors
// display them.
func utf16Len(line []byte, limit int) int {
	n := 0
	for i := 0; i < len(line); {
		c := line[i]
		if c < utf8.RuneSelf {
			if i+1 > limit {
				break
			}
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(line[i:])
		if i+size > limit {
			break
		}
		n += runeUnits(r)
		i += size
	}
	return n
}

// runeUnits is the number of UTF-16 code units of r; an invalid byte
// (utf8.RuneError) is one replacement character.
func runeUnits(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}
