package rp1

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

var (
	// tbdRe: the TBD marker, bare or as _TBD_ (both upstream spellings).
	tbdRe = regexp.MustCompile(`(?i)_TBD_|\bTBD\b`)
	// placeholderRe: a bracketed placeholder such as [To Be Determined] or
	// [Your project name]. A following "(" or "[" or ":" makes it a link, not
	// a placeholder; that is checked by the caller.
	placeholderRe = regexp.MustCompile(`(?i)\[(?:to be (?:determined|decided|defined)|tbd|todo|placeholder|fill (?:me )?in[^\]\n]*|insert [^\]\n]*|your [^\]\n]*|describe [^\]\n]*)\]`)
	// todoRe: TODO/FIXME notes, upper-case only so prose "todo list" passes.
	todoRe = regexp.MustCompile(`\b(?:TODO|FIXME)\b`)
)

// assess sets a required section's Status, Sentences and Problems (SPEC §1):
// EMPTY without content, PARTIAL with a TBD/placeholder marker or fewer than
// two sentences, COMPLETE otherwise. Subsections count as content.
func assess(s *Section, src []byte, p parser.Parser) {
	body := src[s.BodySpan.Start:s.BodySpan.End]
	s.Problems = findMarkers(body, s.BodySpan.Start)
	sentences, content := countContent(p, body)
	s.Sentences = sentences
	switch {
	case !content && len(s.Problems) == 0:
		s.Status = StatusEmpty
	case len(s.Problems) > 0:
		s.Status = StatusPartial
	case sentences < 2:
		s.Status = StatusPartial
		s.Problems = []SectionProblem{{Kind: ProblemFewSentence, Span: trimSpan(src, s.BodySpan)}}
	default:
		s.Status = StatusComplete
	}
}

// findMarkers returns the TBD, placeholder and TODO markers in body, outside
// fenced code and HTML comments, with absolute spans (base is body's offset).
func findMarkers(body []byte, base int) []SectionProblem {
	var out []SectionProblem
	ix := source.NewIndex(body)
	var f fence
	var c htmlComment
	for l := 0; l < ix.LineCount(); l++ {
		ls := ix.LineSpan(l)
		line := string(body[ls.Start:ls.End])
		if f.step(line) {
			continue
		}
		line = c.strip(line)
		at := func(i, j int, kind ProblemKind) {
			out = append(out, SectionProblem{Kind: kind, Text: line[i:j], Span: source.Span{Start: base + ls.Start + i, End: base + ls.Start + j}})
		}
		var taken [][]int
		if !mayHoldMarker(line) {
			continue
		}
		for _, m := range placeholderRe.FindAllStringIndex(line, -1) {
			if m[1] < len(line) && strings.ContainsRune("([:", rune(line[m[1]])) {
				continue // a link or link reference, not a placeholder
			}
			at(m[0], m[1], ProblemPlaceholder)
			taken = append(taken, m)
		}
		for _, m := range tbdRe.FindAllStringIndex(line, -1) {
			if !inside(m, taken) {
				at(m[0], m[1], ProblemTBD)
			}
		}
		for _, m := range todoRe.FindAllStringIndex(line, -1) {
			if !inside(m, taken) {
				at(m[0], m[1], ProblemPlaceholder)
			}
		}
	}
	sortProblems(out)
	return out
}

// mayHoldMarker reports whether line can match any marker pattern: each
// needs a '[', an upper-case TODO or FIXME, or "tbd" in some case ((?i)
// folds t, b and d to their ASCII pairs only). Most prose lines hold none,
// and skipping three regexp runs on each keeps a 10 MB section's check
// quick (under the race detector it took 20 s, past the editor tests'
// timeout).
func mayHoldMarker(line string) bool {
	return strings.IndexByte(line, '[') >= 0 ||
		strings.Contains(line, "TODO") || strings.Contains(line, "FIXME") ||
		containsTBD(line)
}

// containsTBD reports whether s contains "tbd" in any ASCII case.
func containsTBD(s string) bool {
	for i := 0; i+3 <= len(s); i++ {
		if s[i]|0x20 == 't' && s[i+1]|0x20 == 'b' && s[i+2]|0x20 == 'd' {
			return true
		}
	}
	return false
}

func inside(m []int, spans [][]int) bool {
	for _, s := range spans {
		if m[0] >= s[0] && m[1] <= s[1] {
			return true
		}
	}
	return false
}

func sortProblems(ps []SectionProblem) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].Span.Start < ps[j-1].Span.Start; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
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
