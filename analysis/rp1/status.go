package rp1

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Placeholders are marker forms, never a word in a sentence (SPEC §1): "a
// TODO app" or "to-do list" is content, "TODO:" or a line that is only
// "TODO" is a placeholder.
var (
	// tbdRe: the TBD marker: in emphasis in any case (_TBD_, *tbd*, **TBD**,
	// rp1's skeleton writes _TBD_) or bare in capitals.
	tbdRe = regexp.MustCompile(`(?i:(?:\*\*|__|\*|_)tbd(?:\*\*|__|\*|_))|\bTBD\b`)
	// placeholderRe: a bracketed or angled placeholder such as
	// [To Be Determined], [Your project name], <placeholder>, <insert date>,
	// or a template field such as {Project Name} or {Draft | Complete}. A
	// "(", "[" or ":" after a bracket makes it a link, not a placeholder;
	// that is checked by the caller.
	placeholderRe = regexp.MustCompile(`(?i)\[(?:` + placeholderWords + `)\]|<(?:` + placeholderWords + `)>|\{[A-Z][A-Za-z0-9 ,'’/&|.-]*\}`)
	// todoRe: a TODO/FIXME note: the word followed by a colon (TODO:,
	// TODO(ann):).
	todoRe = regexp.MustCompile(`\b(?:TODO|FIXME|TBD)(?:\([^)\n]*\))?[ \t]*:`)
	// bareTodoRe: a line (or list item) that is nothing but TODO or FIXME.
	bareTodoRe = regexp.MustCompile(`(?i)^(?:todo|fixme)[.!]*$`)
)

const placeholderWords = `to be (?:determined|decided|defined|confirmed)|tbd|tbc|todo|placeholder|fill (?:me )?in[^\]>\n]*|insert [^\]>\n]*|your [^\]>\n]*|describe [^\]>\n]*|add [^\]>\n]*`

// assess sets a required section's Status, Sentences and Problems (SPEC §1):
// EMPTY without content, or when all it holds is placeholders (a skeleton's
// "_TBD_" or "- _TBD_" is unfilled); PARTIAL with a placeholder marker or
// fewer than two sentences; COMPLETE otherwise. Subsections count as
// content, their headings do not.
func assess(s *Section, src []byte, p parser.Parser) {
	body := src[s.BodySpan.Start:s.BodySpan.End]
	s.Problems = findMarkers(body, s.BodySpan.Start)
	sentences, content := countContent(p, body)
	s.Sentences = sentences
	switch {
	case !content || (len(s.Problems) > 0 && placeholderOnlyBody(body)):
		s.Status, s.Sentences = StatusEmpty, 0
	case len(s.Problems) > 0:
		s.Status = StatusPartial
	case sentences < 2:
		s.Status = StatusPartial
		s.Problems = []SectionProblem{{Kind: ProblemFewSentence, Span: trimSpan(src, s.BodySpan)}}
	default:
		s.Status = StatusComplete
	}
}

// AssessBody is the status a section with this body would have: how the
// interview decides whether what it would write fills a section.
func AssessBody(body string) SectionStatus {
	s := &Section{ID: Problem, BodySpan: source.Span{End: len(body)}}
	assess(s, []byte(body), newBodyParser())
	return s.Status
}

// contentLines calls fn for each line of body that can hold content: outside
// fenced code, with HTML comments blanked and inline code kept out of
// marker matching (blanked too), skipping blank lines and headings. A fenced
// code block is reported once, as fenced.
func contentLines(body []byte, fn func(line string, start int, fenced bool)) {
	ix := source.NewIndex(body)
	var f codefence.Scanner
	var c htmlComment
	inFence := false
	for l := 0; l < ix.LineCount(); l++ {
		ls := ix.LineSpan(l)
		line := string(body[ls.Start:ls.End])
		if f.Step(line) {
			if !inFence {
				fn(line, ls.Start, true)
			}
			inFence = f.Open()
			continue
		}
		inFence = false
		line = blankInlineCode(c.strip(line))
		if strings.TrimSpace(line) == "" {
			continue
		}
		if lvl, _ := atxHeading(line); lvl > 0 {
			continue
		}
		fn(line, ls.Start, false)
	}
}

// findMarkers returns the TBD, placeholder and TODO markers in body, outside
// fenced code, inline code and HTML comments, with absolute spans (base is
// body's offset).
func findMarkers(body []byte, base int) []SectionProblem {
	var out []SectionProblem
	contentLines(body, func(line string, start int, fenced bool) {
		if fenced {
			return
		}
		for _, m := range markerSpans(line) {
			out = append(out, SectionProblem{Kind: m.kind, Text: line[m.start:m.end],
				Span: source.Span{Start: base + start + m.start, End: base + start + m.end}})
		}
	})
	return out
}

type marker struct {
	start, end int
	kind       ProblemKind
}

// markerSpans finds the placeholder markers of one line, in order.
func markerSpans(line string) []marker {
	if !mayHoldMarker(line) {
		return nil
	}
	var out []marker
	var taken [][]int
	for _, m := range placeholderRe.FindAllStringIndex(line, -1) {
		if line[m[0]] == '[' && m[1] < len(line) && strings.ContainsRune("([:", rune(line[m[1]])) {
			continue // a link or link reference, not a placeholder
		}
		out = append(out, marker{m[0], m[1], ProblemPlaceholder})
		taken = append(taken, m)
	}
	for _, m := range tbdRe.FindAllStringIndex(line, -1) {
		if !inside(m, taken) {
			out = append(out, marker{m[0], m[1], ProblemTBD})
			taken = append(taken, m)
		}
	}
	for _, m := range todoRe.FindAllStringIndex(line, -1) {
		if !inside(m, taken) {
			end := m[1] - 1 // the word, without the colon
			for end > m[0] && (line[end-1] == ' ' || line[end-1] == '\t') {
				end--
			}
			out = append(out, marker{m[0], end, ProblemPlaceholder})
			taken = append(taken, m)
		}
	}
	if item, off := stripLineMarks(line); bareTodoRe.MatchString(item) && !inside([]int{off, off + len(item)}, taken) {
		word := strings.TrimRight(item, ".!")
		out = append(out, marker{off, off + len(word), ProblemPlaceholder})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// mayHoldMarker is a cheap test that lets most lines skip the regular
// expressions: every marker holds a bracket, "TBD" (any case), "TODO" or
// "FIXME".
func mayHoldMarker(line string) bool {
	if strings.ContainsAny(line, "[<{") || strings.Contains(line, "TODO") || strings.Contains(line, "FIXME") {
		return true
	}
	for i := 0; i+3 <= len(line); i++ {
		switch line[i] {
		case 't', 'T', 'f', 'F':
			w := strings.ToLower(line[i:min(i+5, len(line))])
			if strings.HasPrefix(w, "tbd") || strings.HasPrefix(w, "todo") || strings.HasPrefix(w, "fixme") {
				return true
			}
		}
	}
	return false
}

// stripLineMarks returns the text of a line without indentation, block
// quote and list markers, surrounding emphasis and trailing spaces, and the
// offset where that text starts in line.
func stripLineMarks(line string) (string, int) {
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		switch {
		case i < len(line) && line[i] == '>':
			i++
			continue
		case i+1 < len(line) && strings.IndexByte("-*+", line[i]) >= 0 && (line[i+1] == ' ' || line[i+1] == '\t'):
			i += 2
			continue
		}
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j > i && j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
			i = j + 2
			continue
		}
		break
	}
	end := len(line)
	for end > i && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	for i < end && (line[i] == '*' || line[i] == '_') && (line[end-1] == line[i]) {
		i++
		end--
	}
	return line[i:end], i
}

// placeholderOnlyLine: the line (a content line as contentLines gives it)
// holds markers and nothing else but list marks, emphasis and punctuation.
func placeholderOnlyLine(line string) bool {
	ms := markerSpans(line)
	if len(ms) == 0 {
		return false
	}
	rest := []byte(line)
	for _, m := range ms {
		for i := m.start; i < m.end; i++ {
			rest[i] = ' '
		}
	}
	for _, r := range string(rest) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// placeholderOnlyBody: body holds content lines and each is placeholder-only
// (no fenced code, no table, no real text).
func placeholderOnlyBody(body []byte) bool {
	any, only := false, true
	contentLines(body, func(line string, _ int, fenced bool) {
		any = true
		if fenced || !placeholderOnlyLine(line) {
			only = false
		}
	})
	return any && only
}

// blankInlineCode replaces the text of `code spans` (backticks included) by
// spaces, keeping offsets, so markers inside code are not read.
func blankInlineCode(line string) string {
	if !strings.Contains(line, "`") {
		return line
	}
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		closing := strings.Repeat("`", n)
		j := strings.Index(string(b[i+n:]), closing)
		if j < 0 {
			i += n
			continue
		}
		end := i + n + j + n
		for k := i; k < end; k++ {
			b[k] = ' '
		}
		i = end
	}
	return string(b)
}

func inside(m []int, spans [][]int) bool {
	for _, s := range spans {
		if m[0] >= s[0] && m[1] <= s[1] {
			return true
		}
	}
	return false
}

// newBodyParser returns the parser for section bodies; the table extension
// lets table rows count as content (upstream charters hold risk and
// failure-mode tables). goldmark does not document its parsers as safe for
// concurrent use, so each Parse makes its own.
func newBodyParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()
}

// countContent counts sentences in body's prose and list items and reports
// whether body holds any content block at all. Each list item and table body
// row counts as at least one sentence, so a list of two items is two
// sentences; headings and HTML comments are not content.
func countContent(p parser.Parser, body []byte) (sentences int, content bool) {
	body = capIndent(body, maxIndent)
	doc := p.Parse(text.NewReader(body))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			c := countSentences(joinLines(n, body))
			if _, ok := n.Parent().(*ast.ListItem); ok && n.PreviousSibling() == nil && c == 0 {
				c = 1
			}
			sentences += c
			content = content || c > 0
			return ast.WalkSkipChildren, nil
		case *east.TableRow:
			sentences++
			content = true
			return ast.WalkSkipChildren, nil
		case *east.TableHeader, *ast.FencedCodeBlock, *ast.CodeBlock:
			content = true
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return sentences, content
}

// maxIndent bounds the leading white space goldmark sees. Its list parsing
// costs time proportional to lines × nesting depth: a 1500-level nested list
// took seconds per parse, on every keystroke and request. Sixteen levels
// count like any deeper nesting.
const maxIndent = 32

// capIndent returns body with each line's leading spaces and tabs cut to max
// columns (a tab counts as 4), copying only when a line needs it.
func capIndent(body []byte, max int) []byte {
	var out []byte
	start := 0
	for start < len(body) {
		end := bytes.IndexByte(body[start:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += start + 1
		}
		line := body[start:end]
		cols, i := 0, 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			if line[i] == '\t' {
				cols += 4
			} else {
				cols++
			}
			i++
		}
		if cols > max && out == nil {
			out = append(make([]byte, 0, len(body)), body[:start]...)
		}
		if out != nil {
			if cols > max {
				out = append(out, bytes.Repeat([]byte(" "), max)...)
				out = append(out, line[i:]...)
			} else {
				out = append(out, line...)
			}
		}
		start = end
	}
	if out == nil {
		return body
	}
	return out
}

func joinLines(n ast.Node, src []byte) string {
	var b strings.Builder
	lines := n.Lines()
	size := 0
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		size += seg.Len() + 1
	}
	b.Grow(size) // one allocation, not log2(size) of them
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
		b.WriteByte(' ')
	}
	return b.String()
}

// countSentences counts sentences in prose: a sentence is a run of text with
// at least one letter or digit, ended by . ! ? or … followed by a space or
// the end (closing quotes and brackets may sit between). Trailing text
// without a terminator is a sentence too. Abbreviations such as "e.g." may
// over-count; that only errs towards COMPLETE for real prose.
func countSentences(s string) int {
	// Decoded rune by rune rather than converted to []rune, which took
	// four bytes per character of a section's text.
	count, word := 0, false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = true
			continue
		}
		if !strings.ContainsRune(".!?…", r) {
			continue
		}
		j := i
		for j < len(s) {
			next, size := utf8.DecodeRuneInString(s[j:])
			if !strings.ContainsRune(".!?…\"'”’)]*_", next) {
				break
			}
			j += size
		}
		if word {
			if next, _ := utf8.DecodeRuneInString(s[j:]); j == len(s) || unicode.IsSpace(next) {
				count++
				word = false
			}
		}
		i = j
	}
	if word {
		count++
	}
	return count
}

// trimSpan shrinks span to its non-blank content (a zero-width span at its
// start when it is blank).
func trimSpan(src []byte, s source.Span) source.Span {
	for s.Start < s.End && isSpace(src[s.Start]) {
		s.Start++
	}
	for s.End > s.Start && isSpace(src[s.End-1]) {
		s.End--
	}
	return s
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
