package analysis

import (
	"bytes"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Inline suppression comments, following markdownlint's conventions:
//
//	<!-- charter-lsp-disable CODE… -->            off from here on (all codes if none named)
//	<!-- charter-lsp-enable CODE… -->             back on from here on
//	<!-- charter-lsp-disable-line CODE… -->       off on this line
//	<!-- charter-lsp-disable-next-line CODE… -->  off on the next line
//	<!-- charter-lsp-disable-file CODE… -->       off in the whole file
//
// A diagnostic is matched by the line its range starts on.
const suppressPrefix = "charter-lsp-"

type directive struct {
	line  int
	verb  string // disable, enable, disable-line, disable-next-line, disable-file
	codes []string
	span  source.Span
	used  bool // it suppressed a diagnostic (Filter)
}

// Suppressions are the directives of one markdown file.
type Suppressions struct {
	directives []directive
	unknown    []diag.Diagnostic
}

// ParseSuppressions finds the directives in a markdown document. Directives
// naming unknown codes are reported by Unknown.
func ParseSuppressions(ix *source.Index) *Suppressions {
	s := &Suppressions{}
	src := ix.Source()
	// Only a line's first "<!--" can open a directive. They are found by
	// searching the text for them (rare), not by looking at every line,
	// and a version after an edit searches only what the edit changed
	// (Index.Find): this runs on every keystroke of a 30,000-line register.
	last := -1 // the line of the "<!--" before
	for _, at := range ix.Find("<!--") {
		line := ix.Line(at)
		if line == last {
			continue
		}
		last = line
		span := ix.LineSpan(line)
		text := src[span.Start:span.End]
		i := at - span.Start
		body := text[i+4:]
		j := bytes.Index(body, []byte("-->"))
		if j < 0 || !bytes.Contains(body[:j], []byte(suppressPrefix)) {
			continue
		}
		fields := strings.Fields(string(body[:j]))
		if len(fields) == 0 || !strings.HasPrefix(fields[0], suppressPrefix) {
			continue
		}
		verb := strings.TrimPrefix(fields[0], suppressPrefix)
		switch verb {
		case "disable", "enable", "disable-line", "disable-next-line", "disable-file":
		default:
			continue
		}
		d := directive{line: line, verb: verb, span: source.Span{Start: span.Start + i, End: span.Start + i + 4 + j + 3}}
		for _, code := range fields[1:] {
			code = strings.Trim(code, ",")
			if code == "" {
				continue
			}
			if _, known := diag.ParseCode(code); !known {
				s.unknown = append(s.unknown, diag.New(diag.UnknownDisableCode, d.span,
					"%s names unknown code %q; see docs/diagnostics.md for the list", fields[0], code))
				continue
			}
			d.codes = append(d.codes, code)
		}
		if len(fields) > 1 && len(d.codes) == 0 {
			continue // only unknown codes: disabling everything would surprise
		}
		s.directives = append(s.directives, d)
	}
	return s
}

// Unknown are diagnostics for directives that name codes that do not exist.
func (s *Suppressions) Unknown() []diag.Diagnostic { return s.unknown }

// Filter drops the diagnostics that a directive switches off. Each
// diagnostic's Range must be set.
func (s *Suppressions) Filter(ds []diag.Diagnostic) []diag.Diagnostic {
	if len(s.directives) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		if by := s.suppressor(d.Code.String(), d.Range.Start.Line); by >= 0 {
			s.directives[by].used = true
			continue
		}
		out = append(out, d)
	}
	return out
}

// Unused are unused-disable-comment diagnostics for the disable
// directives that suppressed nothing in the diagnostics Filter was given,
// each with the fix that removes the comment (and its line, when the
// comment is all the line holds). src is the file's text.
func (s *Suppressions) Unused(src []byte) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range s.directives {
		if d.used || d.verb == "enable" {
			continue
		}
		what := "any code"
		if len(d.codes) > 0 {
			what = strings.Join(d.codes, ", ")
		}
		dg := diag.New(diag.UnusedDisableComment, d.span, "charter-lsp-%s %s suppresses nothing here: remove it, or point it at the code and line it is meant for", d.verb, what)
		dg.Fix = diag.Replace("Remove the unused charter-lsp-"+d.verb+" comment", removal(src, d.span), "")
		out = append(out, dg)
	}
	return out
}

// removal is the span that removes a comment: its whole line when the
// comment is all the line holds, else the comment and the blanks before it.
func removal(src []byte, c source.Span) source.Span {
	start := c.Start
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	end := c.End
	for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\r') {
		end++
	}
	if (start == 0 || src[start-1] == '\n') && (end == len(src) || src[end] == '\n') {
		if end < len(src) {
			end++ // the line break
		}
		return source.Span{Start: start, End: end}
	}
	return source.Span{Start: start, End: c.End}
}

// suppressor is the index of the directive that switches code off on line,
// or -1.
func (s *Suppressions) suppressor(code string, line int) int {
	off := -1 // the disable directive in force from those up to line
	for i, d := range s.directives {
		if !d.names(code) {
			continue
		}
		switch d.verb {
		case "disable-file":
			return i
		case "disable-line":
			if d.line == line {
				return i
			}
		case "disable-next-line":
			if d.line+1 == line {
				return i
			}
		case "disable":
			if d.line <= line {
				off = i
			}
		case "enable":
			if d.line <= line {
				off = -1
			}
		}
	}
	return off
}

func (d directive) names(code string) bool {
	if len(d.codes) == 0 {
		return true
	}
	for _, c := range d.codes {
		if c == code {
			return true
		}
	}
	return false
}

// DisableEdit adds code to a disable-next-line comment on the line above
// line, or inserts such a comment line, indented like line.
func DisableEdit(ix *source.Index, line int, code string) diag.Edit {
	src := ix.Source()
	if line > 0 {
		prev := ix.LineSpan(line - 1)
		text := src[prev.Start:prev.End]
		t := bytes.TrimSpace(text)
		if bytes.HasPrefix(t, []byte("<!-- "+suppressPrefix+"disable-next-line")) && bytes.HasSuffix(t, []byte("-->")) {
			at := prev.Start + bytes.LastIndex(text, []byte("-->"))
			for at > prev.Start && (src[at-1] == ' ' || src[at-1] == '\t') {
				at--
			}
			return diag.Edit{Span: source.Span{Start: at, End: at}, NewText: " " + code}
		}
	}
	start := ix.LineStart(line)
	indent := start
	for indent < len(src) && (src[indent] == ' ' || src[indent] == '\t') {
		indent++
	}
	comment := string(src[start:indent]) + "<!-- " + suppressPrefix + "disable-next-line" + " " + code + " -->" + source.LineEndingAt(src, ix.LineEnd(line))
	return diag.Edit{Span: source.Span{Start: start, End: start}, NewText: comment}
}
