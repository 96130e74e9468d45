package pi

import (
	"bytes"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Charter is a pi-charter charter.md.
type Charter struct {
	Title string // the first "# " heading, "Charter: " removed
	// Sections by normalized heading (lower-case, whitespace collapsed). As
	// upstream keeps a map, a repeated heading's last occurrence wins.
	Sections map[string]*Section
	// Objective is the ## Objective text with blank and <!-- lines dropped.
	Objective string
	Scope     []ScopeItem // "- " lines of ## Scope and constraints
	Commands  []CommandLine
	// QA and Readiness are the raw bodies of ## QA and ## Readiness, nil when absent.
	QA, Readiness *Section
	// Criteria is the legacy ## Criteria section parsed as flat ### VAL-*
	// criteria (upstream's rule for charter.md); nil without the section.
	Criteria *Criteria
}

// Section is one H2 section of charter.md.
type Section struct {
	Heading     string // as written, trimmed
	HeadingSpan source.Span
	BodySpan    source.Span // from the line after the heading to the next H2
	Body        string
}

// ScopeItem is one "- " line.
type ScopeItem struct {
	Text string
	Span source.Span
}

// CommandLine is one non-blank, non-comment line of ## Commands.
type CommandLine struct {
	Key       string // trimmed, lower-cased; "" when malformed without a key
	Value     string
	LineSpan  source.Span
	KeySpan   source.Span
	ValueSpan source.Span
	// Malformed: no colon, empty key, empty value or a line break (a lone
	// \r) inside the command (upstream warns and skips); Problem says which:
	// "no-colon", "empty-key", "empty-value", "line-break".
	Malformed bool
	Problem   string
	// Duplicate: an earlier valid line had the same key (upstream warns; the
	// last one wins). First points at the first such line.
	Duplicate bool
	First     source.Span
}

// Command returns the winning value of key, as upstream's map holds it.
func (c *Charter) Command(key string) (string, bool) {
	v, ok := "", false
	for _, l := range c.Commands {
		if !l.Malformed && l.Key == key {
			v, ok = l.Value, true
		}
	}
	return v, ok
}

// ParseCharter parses a pi-charter charter.md as upstream does: sections
// split at /^##\s+(.+?)\s*$/ lines (an H1 does not end a section).
func ParseCharter(src []byte) *Charter {
	ch := &Charter{Sections: map[string]*Section{}}
	var cur *Section
	var curKey string
	closeAt := func(end int) {
		if cur != nil && curKey != "" {
			if cur.BodySpan.Start > end {
				end = cur.BodySpan.Start
			}
			cur.BodySpan.End = end
			cur.Body = string(src[cur.BodySpan.Start:end])
			ch.Sections[curKey] = cur
		}
	}
	for _, l := range splitLines(src, 0, len(src)) {
		if ch.Title == "" {
			if t, ok := heading(src, l, 1); ok {
				ch.Title = strings.TrimFunc(strings.TrimPrefix(string(src[t.Start:t.End]), "Charter:"), isJSSpace)
			}
		}
		t, ok := heading(src, l, 2)
		if !ok {
			continue
		}
		closeAt(lineEndBefore(src, l.start))
		cur = &Section{Heading: string(src[t.Start:t.End]), HeadingSpan: l.span(), BodySpan: source.Span{Start: l.next}}
		curKey = normalizeKey(src[t.Start:t.End])
	}
	closeAt(len(src))

	if s := ch.Sections["objective"]; s != nil {
		var keep []string
		for _, l := range splitLines(src, s.BodySpan.Start, s.BodySpan.End) {
			t := trimSpan(src, l.span())
			if t.Len() == 0 || strings.HasPrefix(string(src[t.Start:t.End]), "<!--") {
				continue
			}
			keep = append(keep, string(src[t.Start:t.End]))
		}
		ch.Objective = strings.Join(keep, "\n")
	}
	if s := ch.Sections["scope and constraints"]; s != nil {
		for _, l := range splitLines(src, s.BodySpan.Start, s.BodySpan.End) {
			t := trimSpan(src, l.span())
			if !strings.HasPrefix(string(src[t.Start:t.End]), "- ") {
				continue
			}
			item := trimSpan(src, source.Span{Start: t.Start + 2, End: t.End})
			if item.Len() > 0 {
				ch.Scope = append(ch.Scope, ScopeItem{Text: string(src[item.Start:item.End]), Span: item})
			}
		}
	}
	if s := ch.Sections["commands"]; s != nil {
		ch.Commands = parseCommands(src, s.BodySpan)
	}
	ch.QA, ch.Readiness = ch.Sections["qa"], ch.Sections["readiness"]
	if s := ch.Sections["criteria"]; s != nil {
		ch.Criteria = parseLegacyCriteria(src, s)
	}
	return ch
}

// lineEndBefore is the end of the content of the line before offset off.
func lineEndBefore(src []byte, off int) int {
	if off > 0 && src[off-1] == '\n' {
		off--
		if off > 0 && src[off-1] == '\r' {
			off--
		}
	}
	return off
}

// parseCommands applies upstream's /^([^:]+):\s*(.*?)\s*$/ to each trimmed
// line that is not blank or a comment (charter-md.ts@16cab0f:68-92). Lines
// are split on \n alone, so a lone \r stays inside its line: in the name
// it is just a character ([^:] takes it), but in the command "." cannot
// match it and the whole line is malformed.
func parseCommands(src []byte, body source.Span) []CommandLine {
	lines := splitLines(src, body.Start, body.End)
	out := make([]CommandLine, 0, len(lines))
	first := map[string]source.Span{}
	for _, l := range lines {
		t := trimSpan(src, l.span())
		text := src[t.Start:t.End]
		if t.Len() == 0 || bytes.HasPrefix(text, []byte("<!--")) {
			continue
		}
		cl := CommandLine{LineSpan: t}
		colon := bytes.IndexByte(text, ':')
		switch {
		case colon < 0:
			cl.Malformed, cl.Problem = true, "no-colon"
		case colon == 0:
			cl.Malformed, cl.Problem = true, "empty-key"
		default:
			cl.KeySpan = trimSpan(src, source.Span{Start: t.Start, End: t.Start + colon})
			cl.ValueSpan = trimSpan(src, source.Span{Start: t.Start + colon + 1, End: t.End})
			cl.Key = jsLower(string(src[cl.KeySpan.Start:cl.KeySpan.End]))
			cl.Value = string(src[cl.ValueSpan.Start:cl.ValueSpan.End])
			switch {
			case hasLineTerminator(src[cl.ValueSpan.Start:cl.ValueSpan.End]):
				cl.Malformed, cl.Problem = true, "line-break"
			case cl.Value == "":
				cl.Malformed, cl.Problem = true, "empty-value"
			}
		}
		if !cl.Malformed {
			if f, dup := first[cl.Key]; dup {
				cl.Duplicate, cl.First = true, f
			} else {
				first[cl.Key] = t
			}
		}
		out = append(out, cl)
	}
	return out
}

// parseLegacyCriteria reads charter.md's ## Criteria body the way upstream
// does: its milestone pass finds no H2 inside the section, so every
// ### VAL-* heading of the section is a flat criterion.
func parseLegacyCriteria(src []byte, s *Section) *Criteria {
	lines := splitLines(src, s.BodySpan.Start, s.BodySpan.End)
	crits, invalid := parseSections(src, lines)
	return &Criteria{Criteria: new(arena).place(crits, 0), Mode: ModeFlat, Dropped: invalid}
}
