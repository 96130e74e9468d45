package rp1

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

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
	s.Problems, s.MoreMarkers = findMarkers(body, s.BodySpan.Start)
	sentences, content, capped := countContent(p, body)
	if capped != nil {
		capped.Span = capped.Span.Shift(s.BodySpan.Start)
		s.Capped = capped
	}
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
	p := bodyParsers.Get().(parser.Parser)
	defer bodyParsers.Put(p)
	assess(s, []byte(body), p)
	return s.Status
}

// contentLines calls fn for each line of body that can hold content: outside
// fenced code, with HTML comments blanked and inline code kept out of
// marker matching (blanked too), skipping blank lines and headings. A fenced
// code block is reported once, as fenced. It stops when fn returns false.
func contentLines(body []byte, fn func(line string, start int, fenced bool) bool) {
	var f codefence.Scanner
	var c htmlComment
	inFence := false
	source.EachLine(body, func(ls source.Span) bool {
		line := string(body[ls.Start:ls.End])
		if f.Step(line) {
			if !inFence && !fn(line, ls.Start, true) {
				return false
			}
			inFence = f.Open()
			return true
		}
		inFence = false
		line = blankInlineCode(c.strip(line))
		if strings.TrimSpace(line) == "" {
			return true
		}
		if lvl, _ := atxHeading(line); lvl > 0 {
			return true
		}
		return fn(line, ls.Start, false)
	})
}

// maxMarkers is the most markers findMarkers lists for one section; a
// section holding more is partial or empty all the same, and looking for
// the rest would cost a regular expression match each (a section of
// "TBD TBD TBD …").
const maxMarkers = 100

// findMarkers returns the TBD, placeholder and TODO markers in body, outside
// fenced code, inline code and HTML comments, with absolute spans (base is
// body's offset): the first maxMarkers, and whether there are more.
func findMarkers(body []byte, base int) (out []SectionProblem, more bool) {
	contentLines(body, func(line string, start int, fenced bool) bool {
		if fenced {
			return true
		}
		for _, m := range markerSpans(line, maxMarkers+1-len(out)) {
			if len(out) == maxMarkers {
				more = true
				return false
			}
			out = append(out, SectionProblem{Kind: m.kind, Text: line[m.start:m.end],
				Span: source.Span{Start: base + start + m.start, End: base + start + m.end}})
		}
		return true
	})
	return out, more
}

type marker struct {
	start, end int
	kind       ProblemKind
}

// markerSpans finds the placeholder markers of one line, in order; with
// limit >= 0, those among the first limit matches of each expression (a
// line of 250,000 "TBD" need not be matched to the end to list 100).
func markerSpans(line string, limit int) []marker {
	if !mayHoldMarker(line) {
		return nil
	}
	// Each expression runs only where it can match: Go's regular
	// expressions take a microsecond a byte on a line of "[" or "TBD".
	mayPlaceholder, mayTBD, mayTodo := mayHoldPlaceholder(line), containsFoldTBD(line), mayHoldTodo(line)
	var out []marker
	// Each expression's matches come in order without overlapping, so a
	// later one's match lies inside an earlier one's only if it lies inside
	// the last of them that starts at or before it (spans.covers): one pass
	// over each list, however many markers a line holds.
	var placeholders, tbds, todos spans
	for _, m := range findAll(placeholderRe, line, mayPlaceholder, limit) {
		if line[m[0]] == '[' && m[1] < len(line) && strings.ContainsRune("([:", rune(line[m[1]])) {
			continue // a link or link reference, not a placeholder
		}
		out = append(out, marker{m[0], m[1], ProblemPlaceholder})
		placeholders.list = append(placeholders.list, m)
	}
	for _, m := range findAll(tbdRe, line, mayTBD, limit) {
		if !placeholders.covers(m) {
			out = append(out, marker{m[0], m[1], ProblemTBD})
			tbds.list = append(tbds.list, m)
		}
	}
	placeholders.next = 0
	for _, m := range findAll(todoRe, line, mayTodo, limit) {
		if !placeholders.covers(m) && !tbds.covers(m) {
			end := m[1] - 1 // the word, without the colon
			for end > m[0] && (line[end-1] == ' ' || line[end-1] == '\t') {
				end--
			}
			out = append(out, marker{m[0], end, ProblemPlaceholder})
			todos.list = append(todos.list, m)
		}
	}
	if item, off := stripLineMarks(line); bareTodoRe.MatchString(item) && !anyCovers([]int{off, off + len(item)}, placeholders, tbds, todos) {
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
			// Compared folded (strings.ToLower copied each capitalised
			// word's start): no letter outside ASCII folds to one of
			// these words' but "İ" to "i", two bytes, so five bytes
			// could not spell "fixme" with it.
			if w := line[i:]; len(w) >= 3 && strings.EqualFold(w[:3], "tbd") ||
				len(w) >= 4 && strings.EqualFold(w[:4], "todo") || len(w) >= 5 && strings.EqualFold(w[:5], "fixme") {
				return true
			}
		}
	}
	return false
}

// findAll is re's first limit matches in line (all with limit < 0), or
// none when may says it cannot match.
func findAll(re *regexp.Regexp, line string, may bool, limit int) [][]int {
	if !may {
		return nil
	}
	return re.FindAllStringIndex(line, limit)
}

// mayHoldPlaceholder: placeholderRe can match, for it needs "[" or "<"
// before the first letter of one of its words (t, p, f, i, y, d, a in
// either case; none of them has another case folding to it), or "{"
// before a letter (which (?i) lets be any letter, the Kelvin sign
// included).
func mayHoldPlaceholder(line string) bool {
	for i := 0; i+1 < len(line); i++ {
		switch line[i] {
		case '[', '<':
			switch line[i+1] | 0x20 {
			case 't', 'p', 'f', 'i', 'y', 'd', 'a':
				return true
			}
		case '{':
			if c := line[i+1]; c|0x20 >= 'a' && c|0x20 <= 'z' || c >= utf8.RuneSelf {
				return true
			}
		}
	}
	return false
}

// containsFoldTBD: line holds "tbd" in any case, which every tbdRe match
// does (no other letter folds to t, b or d).
func containsFoldTBD(line string) bool {
	for i := 0; i+3 <= len(line); i++ {
		if line[i]|0x20 == 't' && line[i+1]|0x20 == 'b' && line[i+2]|0x20 == 'd' {
			return true
		}
	}
	return false
}

// mayHoldTodo: line holds a word todoRe starts with.
func mayHoldTodo(line string) bool {
	return strings.Contains(line, "TODO") || strings.Contains(line, "FIXME") || strings.Contains(line, "TBD")
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
	for i+1 < end && (line[i] == '*' || line[i] == '_') && (line[end-1] == line[i]) {
		i++
		end--
	}
	return line[i:end], i
}

// placeholderOnlyLine: the line (a content line as contentLines gives it)
// holds markers and nothing else but list marks, emphasis and punctuation.
func placeholderOnlyLine(line string) bool {
	ms := markerSpans(line, -1)
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

// maxPlaceholderBody is the longest body that can be placeholder-only: a
// template's placeholder is a line or a few, and telling a body of 100,000
// "TBD" from text would match every one of them.
const maxPlaceholderBody = 64 << 10

// placeholderOnlyBody: body holds content lines and each is placeholder-only
// (no fenced code, no table, no real text), and it is no longer than
// maxPlaceholderBody.
func placeholderOnlyBody(body []byte) bool {
	if len(body) > maxPlaceholderBody {
		return false
	}
	any, only := false, true
	contentLines(body, func(line string, _ int, fenced bool) bool {
		any = true
		only = !fenced && placeholderOnlyLine(line)
		return only
	})
	return any && only
}

// blankInlineCode replaces the text of `code spans` (backticks included) by
// spaces, keeping offsets, so markers inside code are not read. A span
// opens at a run of backticks and closes at the next run of the same
// length (CommonMark); a run with no such run after it is text. Each run is
// paired once: a pass from the end finds each run's closer, a pass from
// the start blanks. `a repeated 600,000 times used to copy the rest of the
// line at every backtick; a list of the runs grown one by one allocated
// 40 bytes a byte of such a line, and every parse blanks it several times.
func blankInlineCode(line string) string {
	if !strings.Contains(line, "`") {
		return line
	}
	// closer[k] is the number of the next run after run k of the same
	// length, or -1: the only memory besides the result, sized once.
	closer := make([]int32, backtickRuns(line, func(int, int) {}))
	next := map[int]int32{}
	k := int32(len(closer))
	eachRunBackwards(line, func(_, n int) {
		k--
		c, ok := next[n]
		if !ok {
			c = -1
		}
		closer[k], next[n] = c, k
	})
	var b strings.Builder
	b.Grow(len(line))
	at, k, until := 0, 0, int32(-1) // until: the run that closes the open span
	backtickRuns(line, func(i, n int) {
		switch {
		case until >= 0 && int32(k) == until:
			writeSpaces(&b, i+n-at)
			at, until = i+n, -1
		case until < 0 && closer[k] >= 0:
			b.WriteString(line[at:i])
			at, until = i, closer[k]
		}
		k++
	})
	b.WriteString(line[at:])
	return b.String()
}

// writeSpaces writes n spaces to b.
func writeSpaces(b *strings.Builder, n int) {
	const spaces = "                                                                "
	for ; n > len(spaces); n -= len(spaces) {
		b.WriteString(spaces)
	}
	b.WriteString(spaces[:n])
}

// backtickRuns calls fn with the start and length of each run of
// backticks in line, in order, and returns how many there are.
func backtickRuns(line string, fn func(at, n int)) int {
	count := 0
	for i := 0; i < len(line); {
		j := strings.IndexByte(line[i:], '`')
		if j < 0 {
			break
		}
		i += j
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		fn(i, n)
		count++
		i += n
	}
	return count
}

// eachRunBackwards calls fn with the start and length of each run of
// backticks in line, from the last.
func eachRunBackwards(line string, fn func(at, n int)) {
	for i := len(line); i > 0; {
		j := strings.LastIndexByte(line[:i], '`')
		if j < 0 {
			return
		}
		n := 0
		for j-n >= 0 && line[j-n] == '`' {
			n++
		}
		fn(j-n+1, n)
		i = j - n + 1
	}
}

// spans are matches in order, without overlaps; covers answers for
// matches in order, moving through the list once.
type spans struct {
	list [][]int
	next int // list[:next] start at or before the last match asked about
}

// covers reports whether m lies inside one of the spans. Calls must come
// with m's start never decreasing.
func (s *spans) covers(m []int) bool {
	for s.next < len(s.list) && s.list[s.next][0] <= m[0] {
		s.next++
	}
	if s.next == 0 {
		return false
	}
	last := s.list[s.next-1]
	return m[0] >= last[0] && m[1] <= last[1]
}

// anyCovers reports whether one of the lists covers m, from their start.
func anyCovers(m []int, lists ...spans) bool {
	for _, s := range lists {
		s.next = 0
		if s.covers(m) {
			return true
		}
	}
	return false
}

// newBodyParser returns the parser for section bodies: goldmark's block
// parsers and paragraph transformers, with the table one so that table rows
// count as content (upstream charters hold risk and failure-mode tables),
// and no inline parser: countContent reads the raw lines of paragraphs, and
// inline parsing is where goldmark is quadratic on runs of unclosed links,
// brackets and emphasis (bound.go). goldmark does not document its parsers
// as safe for concurrent use, so each parse takes one of bodyParsers for
// itself.
func newBodyParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(extension.NewTableParagraphTransformer(), 200))...),
	)
}

// bodyParsers are section body parsers not in use: a parser is used by one
// parse at a time and made once, not per charter (a monorepo's ten
// thousand rp1 charters made a parser each: 7 % of check's bytes).
var bodyParsers = sync.Pool{New: func() any { return newBodyParser() }}

// countContent counts sentences in body's prose and list items and reports
// whether body holds any content block at all. Each list item and table body
// row counts as at least one sentence, so a list of two items is two
// sentences; headings and HTML comments are not content.
// Body's container prefixes are bounded first (boundBody); capped says
// what was cut.
func countContent(p parser.Parser, body []byte) (sentences int, content bool, capped *Capped) {
	body, capped = boundBody(body)
	body = dropHeadingRuns(body)
	if sentences, ok := countPlain(body); ok {
		return sentences, sentences > 0, capped
	}
	countNodes(p.Parse(text.NewReader(body)), body, &sentences, &content)
	return sentences, content, capped
}

// countPlain is countContent's count, without goldmark, of a body whose
// every line is blank (spaces and tabs), an ATX heading in column 0 ("#"
// to "######" and a space), text that starts with an ASCII letter, or a
// bullet ("- ", "* " or "+ ") and such text: what goldmark reads of it is
// paragraphs, list items of one paragraph each and headings. A paragraph
// runs over the lines after its first that are text (a list item's too:
// lazy continuation lines), and ends at a blank line, a heading or a
// bullet; each holds a letter, so it counts at least one sentence, and
// its lines, one after the other in body, are what countNodes joins (a
// newline and a space are alike to countSentences). ok is false for any
// other body (a carriage return anywhere too), which goldmark reads
// (TestCountPlainAgreesWithGoldmark). Most sections of real charters are
// such text, and goldmark's parse of each was most of the count.
func countPlain(body []byte) (sentences int, ok bool) {
	if bytes.IndexByte(body, '\r') >= 0 {
		return 0, false
	}
	text := string(body) // one copy: countSentences reads parts of it
	open, last := -1, 0  // the paragraph's start, and where its last line ends
	end := func() {
		if open >= 0 {
			sentences += countSentences(text[open:last])
			open = -1
		}
	}
	for start := 0; start < len(text); {
		stop := len(text)
		if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
			stop = start + i
		}
		line := text[start:stop]
		switch {
		case strings.Trim(line, " \t") == "":
			end()
		case isASCIILetter(line[0]):
			if open < 0 {
				open = start
			}
			last = stop
		case len(line) > 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ' && isASCIILetter(line[2]):
			end()
			open, last = start+2, stop
		case line[0] == '#':
			level := len(line) - len(strings.TrimLeft(line, "#"))
			if level > 6 || level == len(line) || line[level] != ' ' {
				return 0, false
			}
			end()
		default:
			return 0, false
		}
		start = stop + 1
	}
	end()
	return sentences, true
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// countNodes adds what the parsed doc of body holds to sentences and
// content (countContent).
func countNodes(doc ast.Node, body []byte, sentences *int, content *bool) {
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
			*sentences += c
			*content = *content || c > 0
			return ast.WalkSkipChildren, nil
		case *east.TableRow:
			*sentences++
			*content = true
			return ast.WalkSkipChildren, nil
		case *east.TableHeader, *ast.FencedCodeBlock, *ast.CodeBlock:
			*content = true
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
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
