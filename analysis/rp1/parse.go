package rp1

import (
	"context"
	"strings"

	"github.com/yuin/goldmark/parser"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Parse reads an rp1 charter.md. It never fails: whatever the text, the
// result describes what is there, and Check says what is wrong with it.
//
// The file is split by a line scan: a leading YAML front matter block is
// skipped, the first H1 is the title, the "**Key**: value" lines before the
// first section are the header, and headings outside fenced code start
// sections: every H2, and an H3 that names one of the five sections when it
// is not inside an H2 that is one of them. A section runs to the next
// heading of its level or higher. "## Scratch Pad" starts the interview
// state, which runs as upstream reads it (see parseScratchPad). Finally the
// file's format is detected and, for a skeleton charter, its regions read.
func Parse(src []byte) *Charter {
	ch, _ := ParseContext(context.Background(), src)
	return ch
}

// sectionChunk is how many sections Parse makes at a time, at most.
const sectionChunk = 64

// ParseContext is Parse that stops, returning ctx's error, when ctx is done:
// checked every 4096 lines and before each section's body is read, so that
// an editor's newer version stops the parse of an older one within a few
// milliseconds, whatever the file (docs/reliability.md, "The cost of
// parsing").
func ParseContext(ctx context.Context, src []byte) (*Charter, error) {
	ix := source.NewIndex(src)
	ch := &Charter{Index: ix}
	n := ix.LineCount()
	if len(src) == 0 {
		n = 0
	}

	first := 0
	if fm, next := frontMatter(ix, n); next > 0 {
		ch.FrontMatter, first = fm, next
	}
	var (
		h         hider
		cur       *Section
		headerTo  = -1 // first line of the first section; the header lies before it
		titleLine = -1
	)
	// Sections are made sectionChunk at a time: a file of 200,000
	// headings made as many sections one by one.
	var slab []Section
	closeSection := func(end int) {
		if cur != nil {
			cur.BodySpan.End = end
			ch.Sections = append(ch.Sections, cur)
			cur = nil
		}
	}
	open := func(i, level int, htext string, id SectionID) {
		if headerTo < 0 {
			headerTo = i
		}
		closeSection(ix.LineStart(i))
		if len(slab) == cap(slab) {
			// 8 first (a charter has a handful), then more.
			slab = make([]Section, 0, min(sectionChunk, 8<<min(len(ch.Sections)/8, 3)))
		}
		slab = append(slab, Section{
			ID:          id,
			Level:       level,
			Heading:     htext,
			HeadingSpan: ix.LineSpan(i),
			BodySpan:    source.Span{Start: ix.LineStart(i + 1)},
		})
		cur = &slab[len(slab)-1]
	}
	all := string(src) // one copy; each line is a slice of it
	for i := first; i < n; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		line := ix.LineSpan(i)
		text := all[line.Start:line.End]
		if h.step(text) {
			continue
		}
		level, htext := atxHeading(text)
		switch {
		case level == 0 || level > 3:
		case level == 1:
			if titleLine < 0 {
				ch.Title, ch.TitleSpan, titleLine = htext, line, i
			}
			if cur != nil {
				closeSection(ix.LineStart(i))
			}
		case level == 2:
			if ch.ScratchPad == nil && IsScratchPadHeading(htext) {
				if headerTo < 0 {
					headerTo = i
				}
				closeSection(ix.LineStart(i))
				sp, next := parseScratchPad(ix, i, n)
				ch.ScratchPad = sp
				i = next - 1
				continue
			}
			id, _ := SectionForHeading(htext)
			open(i, 2, htext, id)
		case level == 3:
			id, ok := SectionForHeading(htext)
			switch {
			case cur == nil && ok, cur != nil && cur.Level == 2 && cur.ID == "" && ok:
				open(i, 3, htext, id)
			case cur != nil && cur.Level == 3:
				open(i, 3, htext, id) // a sibling of a top-level H3 section
			}
		}
	}
	closeSection(len(src))
	if headerTo < 0 {
		headerTo = n
	}
	ch.Fields = parseHeader(ix, titleLine, first, headerTo)
	var body parser.Parser
	for _, s := range ch.Sections {
		if s.ID == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if body == nil {
			body = bodyParsers.Get().(parser.Parser)
			defer bodyParsers.Put(body)
		}
		assess(s, src, body)
	}
	ch.Era = detect(ch)
	ch.Format = ch.Era.Format
	if ch.Format == FormatSkeleton {
		ch.Skeleton = readSkeleton(ch)
	}
	return ch, nil
}

// SectionLevel is the heading level the five sections are written at: that
// of the first one present, else 2.
func (ch *Charter) SectionLevel() int {
	for _, s := range ch.Sections {
		if s.ID != "" {
			return s.Level
		}
	}
	return 2
}

// frontMatter finds a YAML block at the top of the file: a first line "---"
// and a closing "---" or "..." line. It returns the block's span and the
// line after it, or 0 when there is none. Without a closing line the "---"
// is a thematic break, not front matter.
func frontMatter(ix *source.Index, n int) (source.Span, int) {
	src := ix.Source()
	lineText := func(i int) string { return strings.TrimRight(string(src[ix.LineStart(i):ix.LineEnd(i)]), " \t\r") }
	if n < 2 || lineText(0) != "---" {
		return source.Span{}, 0
	}
	for i := 1; i < n; i++ {
		if t := lineText(i); t == "---" || t == "..." {
			return source.Span{Start: 0, End: ix.LineEnd(i)}, i + 1
		}
	}
	return source.Span{}, 0
}

// headerField matches one "**Key**: value" (or "**Key:** value") field:
// t is "**", a key of at least one byte with no "*" (the shortest that
// is followed by "**", white space and ":", or by ":**"), then the value,
// blanks and tabs around it left out. It is the regular expression
// `^\*\*([^*\n]+?)(?:\*\*\s*:|:\*\*)[ \t]*(.*?)[ \t]*$` (TestHeaderField
// holds them together) by hand: the regular expression was a fifth of an
// rp1 charter's parse. It returns the key's and the value's offsets in t.
func headerField(t string) (m [4]int, ok bool) {
	if !strings.HasPrefix(t, "**") {
		return m, false
	}
	rest := -1 // where the value's part starts, after the ":"
	for q := 3; q < len(t) && rest < 0; q++ {
		// The key is t[2:q], with no "*" in it: the shortest one that
		// the separator follows, then a value on the same line.
		if t[q-1] == '*' || t[q-1] == '\n' {
			return m, false
		}
		if strings.HasPrefix(t[q:], "**") {
			j := q + 2
			for j < len(t) && isRESpace(t[j]) {
				j++
			}
			if j < len(t) && t[j] == ':' {
				rest = j + 1
			}
		} else if strings.HasPrefix(t[q:], ":**") {
			rest = q + 3
		}
		if rest >= 0 && strings.IndexByte(t[rest:], '\n') >= 0 {
			rest = -1 // the value would run past its line: a longer key
		}
		m[1] = q
	}
	if rest < 0 {
		return m, false
	}
	start, end := rest, len(t)
	for start < end && (t[start] == ' ' || t[start] == '\t') {
		start++
	}
	for end > start && (t[end-1] == ' ' || t[end-1] == '\t') {
		end--
	}
	m[0], m[2], m[3] = 2, start, end
	return m, true
}

// isRESpace is \s of Go's regular expressions: space, \t, \n, \f, \r.
func isRESpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// parseHeader reads the header fields on lines [from, to), outside fenced
// code, skipping the title line. The one-line variant separates fields with
// " | ".
func parseHeader(ix *source.Index, titleLine, from, to int) []HeaderField {
	src := ix.Source()
	var fields []HeaderField
	var f codefence.Scanner
	for i := from; i < to && i < ix.LineCount(); i++ {
		line := ix.LineSpan(i)
		text := string(src[line.Start:line.End])
		if f.Step(text) || i == titleLine {
			continue
		}
		for _, part := range splitFields(text) {
			m, ok := headerField(text[part.Start:part.End])
			if !ok {
				continue
			}
			base := line.Start + part.Start
			fields = append(fields, HeaderField{
				Key:       strings.TrimSpace(text[part.Start+m[0] : part.Start+m[1]]),
				Value:     text[part.Start+m[2] : part.Start+m[3]],
				Span:      source.Span{Start: base, End: line.Start + part.End},
				ValueSpan: source.Span{Start: base + m[2], End: base + m[3]},
			})
		}
	}
	return fields
}

// splitFields cuts a header line at " | " into trimmed parts (spans within
// the line); a line without the separator is one part.
func splitFields(text string) []source.Span {
	var parts []source.Span
	start := 0
	for {
		i := strings.Index(text[start:], " | ")
		end := len(text)
		if i >= 0 {
			end = start + i
		}
		s, e := start, end
		for s < e && (text[s] == ' ' || text[s] == '\t') {
			s++
		}
		for e > s && (text[e-1] == ' ' || text[e-1] == '\t') {
			e--
		}
		if s < e {
			parts = append(parts, source.Span{Start: s, End: e})
		}
		if i < 0 {
			return parts
		}
		start = end + len(" | ")
	}
}
