package marker

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// severityNames are the words markers use for LSP severities.
var severityNames = map[protocol.DiagnosticSeverity]string{
	protocol.DiagnosticSeverityError:       "error",
	protocol.DiagnosticSeverityWarning:     "warning",
	protocol.DiagnosticSeverityInformation: "information",
	protocol.DiagnosticSeverityHint:        "hint",
}

func severityName(s protocol.DiagnosticSeverity) string {
	if n, ok := severityNames[s]; ok {
		return n
	}
	return fmt.Sprintf("severity(%d)", s)
}

func diagCode(d protocol.Diagnostic) string {
	switch c := d.Code.(type) {
	case protocol.String:
		return string(c)
	case protocol.Integer:
		return strconv.Itoa(int(c))
	}
	return ""
}

func diagMessage(d protocol.Diagnostic) string {
	switch m := d.Message.(type) {
	case protocol.String:
		return string(m)
	case *protocol.MarkupContent:
		return m.Value
	}
	return fmt.Sprint(d.Message)
}

// formatRange writes a range as 1-based line:column (UTF-16 columns).
func formatRange(r protocol.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line+1, r.Start.Character+1, r.End.Line+1, r.End.Character+1)
}

// formatDiag writes one diagnostic on one line:
// path:1:1-1:5 warning code: message [related path:2:1-2:4].
func (s *session) formatDiag(p string, d protocol.Diagnostic) string {
	out := fmt.Sprintf("%s:%s %s %s: %s", p, formatRange(d.Range), severityName(d.Severity), diagCode(d), s.normalize(diagMessage(d)))
	for _, r := range d.RelatedInformation {
		out += fmt.Sprintf(" [related %s:%s]", s.normalize(s.rel(r.Location.URI)), formatRange(r.Location.Range))
	}
	return out
}

func (s *session) formatDiags(p string, ds []protocol.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\t" + s.formatDiag(p, d) + "\n")
	}
	if b.Len() == 0 {
		return "\t(none)\n"
	}
	return b.String()
}

// suggestDiag writes the marker that would expect d.
func (s *session) suggestDiag(p string, d protocol.Diagnostic) string {
	text, _ := s.text(p)
	mp := newMapper(text)
	start, end := mp.offset(d.Range.Start), mp.offset(d.Range.End)
	pattern := regexp.QuoteMeta(text[start:end])
	if start == end {
		pattern = regexp.QuoteMeta(text[mp.lineStart(int(d.Range.Start.Line)):start]) + "()"
	}
	call := fmt.Sprintf("diag(%s, %s, %s)", quoteRegexp(pattern), diagCode(d), severityName(d.Severity))
	if strings.HasSuffix(strings.ToLower(p), ".md") {
		return "<!--@" + call + "--> at the end of that line"
	}
	return fmt.Sprintf("%s:%s %s in the markers section", s.r.test.shortName(p), quoteRegexp(pattern), call)
}

// quoteRegexp writes re`pattern`, or re"pattern" when it holds a backquote
// or a line end.
func quoteRegexp(pattern string) string {
	if strings.ContainsAny(pattern, "`\n\r") {
		return "re" + strconv.Quote(pattern)
	}
	return "re`" + pattern + "`"
}

func title(l protocol.CodeLens) string {
	return l.Command.Title
}

// normalize replaces what differs from run to run in what the server says:
// the workspace folder ($ROOT), and times made during the run ($NOW for a
// timestamp, $STAMP for an evidence run folder's name, $NEWID for the time
// part of a .charters/ charter id, $TODAY for a date).
func (s *session) normalize(text string) string {
	roots := []string{s.root}
	if real, err := filepath.EvalSymlinks(s.root); err == nil && real != s.root {
		roots = append(roots, real)
	}
	for _, root := range roots {
		if enc := strings.TrimPrefix(string(uri.File(root)), "file://"); enc != root {
			text = strings.ReplaceAll(text, enc, "$ROOT")
		}
		text = strings.ReplaceAll(text, root, "$ROOT")
	}
	recent := func(t time.Time) bool {
		return !t.Before(s.r.started.Add(-2*time.Minute)) && !t.After(time.Now().Add(2*time.Minute))
	}
	text = stampRE.ReplaceAllStringFunc(text, func(m string) string {
		// 2026-05-15T03-00-00-000Z is 2026-05-15T03:00:00.000Z.
		sub := stampRE.FindStringSubmatch(m)
		if t, err := time.Parse(time.RFC3339Nano, sub[1]+":"+sub[2]+":"+sub[3]+"."+sub[4]+"Z"); err == nil && recent(t) {
			return "$STAMP"
		}
		return m
	})
	text = timeRE.ReplaceAllStringFunc(text, func(m string) string {
		if t, err := time.Parse(time.RFC3339Nano, m); err == nil && recent(t) {
			return "$NOW"
		}
		return m
	})
	text = charterIDRE.ReplaceAllStringFunc(text, func(m string) string {
		// A .charters/ id made during the run: 20261123-180509-slug.
		if t, err := time.Parse("20060102-150405", m); err == nil && recent(t) {
			return "$NEWID"
		}
		return m
	})
	today := map[string]bool{time.Now().UTC().Format(time.DateOnly): true, time.Now().Format(time.DateOnly): true}
	text = dateRE.ReplaceAllStringFunc(text, func(m string) string {
		if today[m] {
			return "$TODAY"
		}
		return m
	})
	return text
}

var (
	stampRE = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z(-\d+)?`)
	timeRE  = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
	// The time part of a .charters/ charter id.
	charterIDRE = regexp.MustCompile(`\b\d{8}-\d{6}\b`)
	// A date not followed by a time (those were handled above).
	dateRE = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
)

// outline writes document symbols one a line, indented by depth:
// name [detail] kind lines 3-8 (1-based lines).
func outline(syms []protocol.DocumentSymbol, depth int, b *strings.Builder) {
	for _, s := range syms {
		detail := ""
		if s.Detail != nil && *s.Detail != "" {
			detail = " [" + *s.Detail + "]"
		}
		fmt.Fprintf(b, "%s%s%s %s lines %d-%d\n", strings.Repeat("  ", depth), s.Name, detail, symbolKind(s.Kind), s.Range.Start.Line+1, s.Range.End.Line+1)
		outline(s.Children, depth+1, b)
	}
}

func symbolKind(k protocol.SymbolKind) string {
	names := map[protocol.SymbolKind]string{
		protocol.SymbolKindFile: "File", protocol.SymbolKindModule: "Module", protocol.SymbolKindNamespace: "Namespace",
		protocol.SymbolKindPackage: "Package", protocol.SymbolKindClass: "Class", protocol.SymbolKindMethod: "Method",
		protocol.SymbolKindProperty: "Property", protocol.SymbolKindField: "Field", protocol.SymbolKindConstructor: "Constructor",
		protocol.SymbolKindEnum: "Enum", protocol.SymbolKindInterface: "Interface", protocol.SymbolKindFunction: "Function",
		protocol.SymbolKindVariable: "Variable", protocol.SymbolKindConstant: "Constant", protocol.SymbolKindString: "String",
		protocol.SymbolKindNumber: "Number", protocol.SymbolKindBoolean: "Boolean", protocol.SymbolKindArray: "Array",
		protocol.SymbolKindObject: "Object", protocol.SymbolKindKey: "Key", protocol.SymbolKindNull: "Null",
		protocol.SymbolKindEnumMember: "EnumMember", protocol.SymbolKindStruct: "Struct", protocol.SymbolKindEvent: "Event",
		protocol.SymbolKindOperator: "Operator", protocol.SymbolKindTypeParameter: "TypeParameter",
	}
	if n, ok := names[k]; ok {
		return n
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// annotateFolds writes text with each folding range shown as <n> at the
// start of its first line and </n> at the end of its last line (n counts
// the ranges in the order the server sent them; kind when not region).
func annotateFolds(text string, folds []protocol.FoldingRange) string {
	lines := strings.SplitAfter(text, "\n")
	opens := map[int][]string{}
	closes := map[int][]string{}
	for i, f := range folds {
		tag := strconv.Itoa(i + 1)
		attr := ""
		if f.Kind != "" && f.Kind != protocol.FoldingRangeKindRegion {
			attr = " kind=" + string(f.Kind)
		}
		opens[int(f.StartLine)] = append(opens[int(f.StartLine)], "<"+tag+attr+">")
		closes[int(f.EndLine)] = append([]string{"</" + tag + ">"}, closes[int(f.EndLine)]...)
	}
	var b strings.Builder
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		b.WriteString(strings.Join(opens[i], "") + body + strings.Join(closes[i], "") + l[len(body):])
	}
	return b.String()
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n\t")
}

// lineDiff shows how got differs from want, line by line (- want, + got),
// with two lines of context around each change.
func lineDiff(want, got string) string {
	a, b := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	// Longest common subsequence; the texts are short.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		prefix, text string
	}
	var ops []op
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{"  ", a[i]})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{"- ", a[i]})
			i++
		default:
			ops = append(ops, op{"+ ", b[j]})
			j++
		}
	}
	const context = 2
	near := make([]bool, len(ops))
	for k, o := range ops {
		if o.prefix != "  " {
			for d := max(0, k-context); d <= min(len(ops)-1, k+context); d++ {
				near[d] = true
			}
		}
	}
	var out strings.Builder
	skipped := false
	for k, o := range ops {
		if !near[k] {
			if !skipped {
				out.WriteString("\t  …\n")
			}
			skipped = true
			continue
		}
		skipped = false
		out.WriteString("\t" + o.prefix + strings.TrimRight(o.text, "\n") + "\n")
	}
	return out.String()
}
