package rp1

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/parser"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Parse reads an rp1 charter.md. It never fails: whatever the text, the
// result describes what is there, and Check says what is wrong with it.
//
// The file is split by a line scan: the first H1 is the title, the
// "**Key**: value" lines before the first H2 are the header, every H2 (outside
// fenced code) starts a section, and "## Scratch Pad" starts the interview
// state, which runs as upstream reads it (see parseScratchPad).
func Parse(src []byte) *Charter {
	ix := source.NewIndex(src)
	ch := &Charter{Index: ix}
	n := ix.LineCount()
	if len(src) == 0 {
		n = 0
	}

	var (
		f         fence
		cur       *Section
		headerTo  = -1 // first line of the first H2; the header lies before it
		titleLine = -1
	)
	closeSection := func(end int) {
		if cur != nil {
			cur.BodySpan.End = end
			ch.Sections = append(ch.Sections, cur)
			cur = nil
		}
	}
	for i := 0; i < n; i++ {
		line := ix.LineSpan(i)
		text := string(src[line.Start:line.End])
		if f.step(text) {
			continue
		}
		level, htext := atxHeading(text)
		switch {
		case level == 1 && titleLine < 0:
			ch.Title, ch.TitleSpan, titleLine = htext, line, i
		case level == 2:
			if headerTo < 0 {
				headerTo = i
			}
			closeSection(ix.LineStart(i))
			if ch.ScratchPad == nil && isScratchPadHeading(htext) {
				sp, next := parseScratchPad(ix, i, n)
				ch.ScratchPad = sp
				i = next - 1
				continue
			}
			id, _ := SectionForHeading(htext)
			cur = &Section{
				ID:          id,
				Heading:     htext,
				HeadingSpan: line,
				BodySpan:    source.Span{Start: ix.LineStart(i + 1)},
			}
		}
	}
	closeSection(len(src))
	if headerTo < 0 {
		headerTo = n
	}
	ch.Fields = parseHeader(ix, titleLine, headerTo)
	var body parser.Parser
	for _, s := range ch.Sections {
		if s.ID == "" {
			continue
		}
		if body == nil {
			body = newBodyParser()
		}
		assess(s, src, body)
	}
	return ch
}

func isScratchPadHeading(text string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(text), " "), "scratch pad")
}

// headerFieldRe matches one "**Key**: value" (or "**Key:** value") field.
var headerFieldRe = regexp.MustCompile(`^\*\*([^*\n]+?)(?:\*\*\s*:|:\*\*)[ \t]*(.*?)[ \t]*$`)

// parseHeader reads the header fields on lines before line `to`, outside
// fenced code, skipping the title line. The one-line variant separates fields
// with " | ".
func parseHeader(ix *source.Index, titleLine, to int) []HeaderField {
	src := ix.Source()
	var fields []HeaderField
	var f fence
	for i := 0; i < to && i < ix.LineCount(); i++ {
		line := ix.LineSpan(i)
		text := string(src[line.Start:line.End])
		if f.step(text) || i == titleLine {
			continue
		}
		for _, part := range splitFields(text) {
			m := headerFieldRe.FindStringSubmatchIndex(text[part.Start:part.End])
			if m == nil {
				continue
			}
			base := line.Start + part.Start
			fields = append(fields, HeaderField{
				Key:       strings.TrimSpace(text[part.Start+m[2] : part.Start+m[3]]),
				Value:     text[part.Start+m[4] : part.Start+m[5]],
				Span:      source.Span{Start: base, End: line.Start + part.End},
				ValueSpan: source.Span{Start: base + m[4], End: base + m[5]},
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
