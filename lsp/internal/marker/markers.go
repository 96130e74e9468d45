package marker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// markerFuncs are the markers, by name. README.md in the test directory
// documents each with an example.
var markerFuncs = map[string]func(*session, *mark){
	"diag":            diagMarker,
	"hover":           hoverMarker,
	"nohover":         nohoverMarker,
	"nolens":          nolensMarker,
	"codeaction":      codeactionMarker,
	"nocodeaction":    nocodeactionMarker,
	"edit":            editMarker,
	"symbols":         symbolsMarker,
	"folding":         foldingMarker,
	"lens":            lensMarker,
	"complete":        completeMarker,
	"nocomplete":      nocompleteMarker,
	"def":             defMarker,
	"workspacesymbol": workspaceSymbolMarker,
	"command":         commandMarker,
	"refs":            refsMarker,   // ids.go
	"rename":          renameMarker, // ids.go
	"links":           linksMarker,  // ids.go
	"inlay":           inlayMarker,  // ids.go
}

// location resolves a location argument in the current text: re"…" (or
// "…") on the marker's line — the match may run on past the line but must
// start on it; path:re"…" anywhere in that file; a bare path is the start
// of that file. A regexp with one group locates the group.
func (s *session) locate(m *mark, v value) (p string, r protocol.Range, ok bool) {
	s.r.t.Helper()
	var re *regexp.Regexp
	from := 0
	switch v.kind {
	case kindRegexp, kindString:
		p = m.file.path
		re = v.re
		if v.kind == kindString {
			re = regexp.MustCompile(regexp.QuoteMeta(v.str))
		}
	case kindInFile, kindIdent:
		f := s.r.test.lookup(v.str)
		if f == nil {
			s.errorf(m, "no file (or more than one) is called %s", v.str)
			return "", r, false
		}
		p = f.path
		re = v.re
	default:
		s.errorf(m, "want a location (re\"pattern\", path:re\"pattern\" or a path), got %s", v)
		return "", r, false
	}
	text, exists := s.text(p)
	if !exists {
		s.errorf(m, "%s does not exist", p)
		return "", r, false
	}
	mp := newMapper(text)
	if re == nil { // a bare path
		return p, protocol.Range{}, true
	}
	lineEnd := len(text)
	if v.kind == kindRegexp || v.kind == kindString {
		if m.line >= len(mp.lines) {
			s.errorf(m, "line %d is past the end of %s", m.line+1, p)
			return "", r, false
		}
		from, lineEnd = mp.lineStart(m.line), mp.lineEnd(m.line)
	}
	match := re.FindStringSubmatchIndex(text[from:])
	if match == nil || from+match[0] > lineEnd {
		where := fmt.Sprintf("line %d of %s: %q", m.line+1, p, strings.TrimRight(text[from:lineEnd], "\r\n"))
		if v.kind == kindInFile {
			where = p
		}
		s.errorf(m, "no match for %s on %s", v, where)
		return "", r, false
	}
	start, end := match[0], match[1]
	if re.NumSubexp() == 1 && match[2] >= 0 {
		start, end = match[2], match[3]
	}
	return p, mp.rangeOf(from+start, from+end), true
}

func (s *session) wantArgs(m *mark, min, max int) bool {
	s.r.t.Helper()
	if len(m.args) < min || (max >= 0 && len(m.args) > max) {
		s.errorf(m, "wrong number of arguments (%d); see lsp/testdata/markers/README.md", len(m.args))
		return false
	}
	for name := range m.named {
		allowed := name == "after" ||
			m.name == "diag" && name == "related" ||
			m.name == "codeaction" && name == "kind" ||
			m.name == "rename" && name == "confirm"
		if !allowed {
			s.errorf(m, "unknown named argument %s=", name)
			return false
		}
	}
	return true
}

func (s *session) document(p string) protocol.TextDocumentIdentifier {
	return protocol.TextDocumentIdentifier{URI: s.c.URI(p)}
}

func (s *session) requireOpen(m *mark, p string) bool {
	if !s.open[p] {
		s.errorf(m, "%s is not open in the editor (see -open in the flags section)", p)
		return false
	}
	return true
}

// word is an identifier or a string argument.
func word(v value) (string, bool) {
	if v.kind == kindIdent || v.kind == kindString {
		return v.str, true
	}
	return "", false
}

// matches applies a string or regexp argument to text.
func matches(v value, text string) bool {
	switch v.kind {
	case kindString:
		return strings.Contains(text, v.str)
	case kindRegexp:
		return v.re.MatchString(text)
	}
	return false
}

// diag(location, code [, severity] [, "message" or re"message"] [, related=location])
func diagMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, 4) {
		return
	}
	if _, after := m.named["after"]; after {
		s.errorf(m, "a diag marker cannot wait for an action: the action's golden lists the diagnostics after it")
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	code, ok := word(m.args[1])
	if !ok {
		s.errorf(m, "want a code, got %s", m.args[1])
		return
	}
	severity := ""
	var message *value
	for _, a := range m.args[2:] {
		switch {
		case a.kind == kindIdent && severity == "":
			severity = a.str
			if !isSeverity(severity) {
				s.errorf(m, "unknown severity %s (error, warning, information, hint)", severity)
				return
			}
		case (a.kind == kindString || a.kind == kindRegexp) && message == nil:
			message = &a
		default:
			s.errorf(m, "unexpected argument %s", a)
			return
		}
	}
	var related *protocol.Location
	if v, ok := m.named["related"]; ok {
		rp, rr, ok := s.locate(m, v)
		if !ok {
			return
		}
		related = &protocol.Location{URI: s.c.URI(rp), Range: rr}
	}
	var near []string
	for _, d := range s.diags[p] {
		if d.matched || diagCode(d.Diagnostic) != code || d.Range != rng {
			if !d.matched && d.Range.Start.Line == rng.Start.Line {
				near = append(near, s.formatDiag(p, d.Diagnostic))
			}
			continue
		}
		var problems []string
		if severity != "" && severityName(d.Severity) != severity {
			problems = append(problems, "severity "+severityName(d.Severity))
		}
		if message != nil && !matches(*message, s.normalize(diagMessage(d.Diagnostic))) {
			problems = append(problems, fmt.Sprintf("message %q does not match %s", diagMessage(d.Diagnostic), message))
		}
		if related != nil && !hasRelated(d.Diagnostic, *related) {
			problems = append(problems, fmt.Sprintf("no related information at %s:%s", s.rel(related.URI), formatRange(related.Range)))
		}
		if len(problems) > 0 {
			s.errorf(m, "%s: %s", s.formatDiag(p, d.Diagnostic), strings.Join(problems, "; "))
			d.matched = true // reported once
			return
		}
		d.matched = true
		return
	}
	msg := fmt.Sprintf("no %s diagnostic at %s:%s", code, p, formatRange(rng))
	if len(near) > 0 {
		msg += "; on that line:\n\t" + strings.Join(near, "\n\t")
	} else {
		msg += "; the document has:\n" + s.formatDiags(p, s.published(p))
	}
	s.errorf(m, "%s", msg)
}

func isSeverity(name string) bool {
	for _, n := range severityNames {
		if n == name {
			return true
		}
	}
	return false
}

func hasRelated(d protocol.Diagnostic, loc protocol.Location) bool {
	for _, r := range d.RelatedInformation {
		if r.Location == loc {
			return true
		}
	}
	return false
}

// hoverText asks for the hover at a location; "" when there is none.
func (s *session) hoverText(m *mark) (string, bool) {
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return "", false
	}
	h, err := s.c.Server.Hover(s.r.t.Context(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: s.document(p), Position: rng.Start,
	}})
	if err != nil {
		s.errorf(m, "textDocument/hover: %v", err)
		return "", false
	}
	if h == nil {
		return "", true
	}
	switch c := h.Contents.(type) {
	case *protocol.MarkupContent:
		if c.Kind != protocol.MarkupKindMarkdown {
			s.errorf(m, "hover is %s, want markdown", c.Kind)
		}
		return c.Value, true
	}
	s.errorf(m, "hover contents are %T, want MarkupContent", h.Contents)
	return "", false
}

// hover(location, golden | "substring" | "!absent" | re"pattern" …)
func hoverMarker(s *session, m *mark) {
	if !s.wantArgs(m, 1, -1) {
		return
	}
	text, ok := s.hoverText(m)
	if !ok {
		return
	}
	if text == "" {
		s.errorf(m, "no hover")
		return
	}
	s.matchText(m, s.normalize(text), m.args[1:])
}

// nohover(location)
func nohoverMarker(s *session, m *mark) {
	if !s.wantArgs(m, 1, 1) {
		return
	}
	if text, ok := s.hoverText(m); ok && text != "" {
		s.errorf(m, "want no hover, got:\n%s", indent(text))
	}
}

// fileGolden checks a marker whose one argument is the golden of its own
// (open) file's answer, and returns that golden; nil after an error.
func (s *session) fileGolden(m *mark) *golden {
	if !s.wantArgs(m, 1, 1) || !s.requireOpen(m, m.file.path) {
		return nil
	}
	return s.goldenFor(m, m.args[0])
}

// symbols(golden)
func symbolsMarker(s *session, m *mark) {
	g := s.fileGolden(m)
	if g == nil {
		return
	}
	res, err := s.c.Server.DocumentSymbol(s.r.t.Context(), &protocol.DocumentSymbolParams{TextDocument: s.document(m.file.path)})
	if err != nil {
		s.errorf(m, "textDocument/documentSymbol: %v", err)
		return
	}
	var b strings.Builder
	switch syms := res.(type) {
	case protocol.DocumentSymbolSlice:
		outline(syms, 0, &b)
	case nil:
	default:
		s.errorf(m, "textDocument/documentSymbol returned %T, want DocumentSymbol[]", res)
		return
	}
	s.compareGolden(m, g, map[string]string{"": s.normalize(b.String())})
}

// folding(golden)
func foldingMarker(s *session, m *mark) {
	g := s.fileGolden(m)
	if g == nil {
		return
	}
	folds, err := s.c.Server.FoldingRanges(s.r.t.Context(), &protocol.FoldingRangeParams{TextDocument: s.document(m.file.path)})
	if err != nil {
		s.errorf(m, "textDocument/foldingRange: %v", err)
		return
	}
	text, _ := s.text(m.file.path)
	text = strings.ReplaceAll(text, "\r\n", "\n")
	s.compareGolden(m, g, map[string]string{"": annotateFolds(text, folds)})
}

// lens(location, "title" or re"title")
func lensMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, 2) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	if m.args[1].kind != kindString && m.args[1].kind != kindRegexp {
		s.errorf(m, "want the lens title as a string or re\"pattern\", got %s", m.args[1])
		return
	}
	if s.lenses == nil {
		s.lenses = map[string][]*gotLens{}
	}
	lenses, cached := s.lenses[p]
	if !cached {
		s.c.Sync() // the lens reads the version the last change made
		res, err := s.c.Server.CodeLens(s.r.t.Context(), &protocol.CodeLensParams{TextDocument: s.document(p)})
		if err != nil {
			s.errorf(m, "textDocument/codeLens: %v", err)
			return
		}
		for _, l := range res {
			lenses = append(lenses, &gotLens{CodeLens: l})
		}
		s.lenses[p] = lenses
	}
	var all []string
	for _, l := range lenses {
		t := title(l.CodeLens)
		all = append(all, fmt.Sprintf("%d:%q", l.Range.Start.Line+1, t))
		if l.matched || l.Range.Start.Line != rng.Start.Line {
			continue
		}
		ok := t == m.args[1].str
		if m.args[1].kind == kindRegexp {
			ok = m.args[1].re.MatchString(t)
		}
		if ok {
			l.matched = true
			return
		}
	}
	if len(all) == 0 {
		all = []string{"none"}
	}
	s.errorf(m, "no code lens %s on line %d of %s; the lenses (line:title): %s", m.args[1], rng.Start.Line+1, p, strings.Join(all, ", "))
}

// nolens(location or path, "title"): no lens with that title on the line
// (anywhere in the file for a bare path).
func nolensMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, 2) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	want, _ := word(m.args[1])
	s.c.Sync()
	res, err := s.c.Server.CodeLens(s.r.t.Context(), &protocol.CodeLensParams{TextDocument: s.document(p)})
	if err != nil {
		s.errorf(m, "textDocument/codeLens: %v", err)
		return
	}
	for _, l := range res {
		if title(l) == want && (m.args[0].kind == kindIdent || l.Range.Start.Line == rng.Start.Line) {
			s.errorf(m, "code lens %q is there, on line %d", want, l.Range.Start.Line+1)
		}
	}
}

// completionLabels asks for completion at a location.
func (s *session) completionLabels(m *mark) ([]string, bool) {
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return nil, false
	}
	res, err := s.c.Server.Completion(s.r.t.Context(), &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: s.document(p), Position: rng.Start,
	}})
	if err != nil {
		s.errorf(m, "textDocument/completion: %v", err)
		return nil, false
	}
	var items []protocol.CompletionItem
	switch r := res.(type) {
	case protocol.CompletionItemSlice:
		items = r
	case *protocol.CompletionList:
		items = r.Items
	case nil:
	default:
		s.errorf(m, "textDocument/completion returned %T", res)
		return nil, false
	}
	labels := make([]string, 0, len(items))
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	return labels, true
}

// complete(location, "label", "!absent" …)
func completeMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, -1) {
		return
	}
	labels, ok := s.completionLabels(m)
	if !ok {
		return
	}
	has := map[string]bool{}
	for _, l := range labels {
		has[l] = true
	}
	for _, a := range m.args[1:] {
		if a.kind != kindString {
			s.errorf(m, "want labels as strings, got %s", a)
			continue
		}
		if absent, ok := strings.CutPrefix(a.str, "!"); ok {
			if has[absent] {
				s.errorf(m, "completion offers %q", absent)
			}
		} else if !has[a.str] {
			s.errorf(m, "completion lacks %q; got %q", a.str, labels)
		}
	}
}

// nocomplete(location)
func nocompleteMarker(s *session, m *mark) {
	if !s.wantArgs(m, 1, 1) {
		return
	}
	if labels, ok := s.completionLabels(m); ok && len(labels) > 0 {
		s.errorf(m, "want no completion, got %q", labels)
	}
}

// def(location, target …): the definition is exactly the targets.
func defMarker(s *session, m *mark) {
	if !s.wantArgs(m, 1, -1) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	res, err := s.c.Server.Definition(s.r.t.Context(), &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: s.document(p), Position: rng.Start,
	}})
	if err != nil {
		s.errorf(m, "textDocument/definition: %v", err)
		return
	}
	var got []protocol.Location
	switch r := res.(type) {
	case *protocol.Location:
		got = append(got, *r)
	case protocol.LocationSlice:
		got = r
	case protocol.DefinitionLinkSlice:
		for _, l := range r {
			got = append(got, protocol.Location{URI: l.TargetURI, Range: l.TargetSelectionRange})
		}
	case nil:
	default:
		s.errorf(m, "textDocument/definition returned %T", res)
		return
	}
	s.matchLocations(m, "definition", got, m.args[1:])
}

// matchLocations reports unless got are exactly the targets (locations,
// in any order).
func (s *session) matchLocations(m *mark, what string, got []protocol.Location, targets []value) {
	var have, want []string
	for _, l := range got {
		have = append(have, s.formatLocation(l))
	}
	for _, a := range targets {
		tp, tr, ok := s.locate(m, a)
		if !ok {
			return
		}
		want = append(want, s.formatLocation(protocol.Location{URI: s.c.URI(tp), Range: tr}))
	}
	sort.Strings(have)
	sort.Strings(want)
	if strings.Join(have, " ") != strings.Join(want, " ") {
		s.errorf(m, "%s =\n\t%s\nwant\n\t%s", what, strings.Join(have, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func (s *session) formatLocation(l protocol.Location) string {
	return s.normalize(s.rel(l.URI)) + ":" + formatRange(l.Range)
}

// workspacesymbol("query", "name" …): the symbols found are exactly these
// (a name matches a symbol whose name is it or starts with it and a blank).
func workspaceSymbolMarker(s *session, m *mark) {
	if !s.wantArgs(m, 1, -1) {
		return
	}
	query, ok := word(m.args[0])
	if !ok || m.args[0].kind != kindString {
		s.errorf(m, "want the query as a string, got %s", m.args[0])
		return
	}
	res, err := s.c.Server.Symbols(s.r.t.Context(), &protocol.WorkspaceSymbolParams{Query: query})
	if err != nil {
		s.errorf(m, "workspace/symbol: %v", err)
		return
	}
	var names []string
	switch syms := res.(type) {
	case protocol.WorkspaceSymbolSlice:
		for _, x := range syms {
			names = append(names, x.Name)
		}
	case protocol.SymbolInformationSlice:
		for _, x := range syms {
			names = append(names, x.Name)
		}
	case nil:
	default:
		s.errorf(m, "workspace/symbol returned %T", res)
		return
	}
	left := append([]string(nil), names...)
	for _, a := range m.args[1:] {
		want, _ := word(a)
		i := -1
		for j, n := range left {
			if n == want || strings.HasPrefix(n, want+" ") {
				i = j
				break
			}
		}
		if i < 0 {
			s.errorf(m, "workspace/symbol %q lacks %s; got %q", query, a, names)
			continue
		}
		left = append(left[:i], left[i+1:]...)
	}
	if len(left) > 0 {
		s.errorf(m, "workspace/symbol %q also found %q", query, left)
	}
}

// command("name", [path,] golden | "substring" | "!absent" | re"pattern" …):
// executes a command (with {"uri": …} of the file when a path is given)
// and matches its JSON result, indented.
func commandMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, -1) {
		return
	}
	name, ok := word(m.args[0])
	if !ok || m.args[0].kind != kindString {
		s.errorf(m, "want the command as a string, got %s", m.args[0])
		return
	}
	matchers := m.args[1:]
	var args []protocol.LSPAny
	if a := matchers[0]; a.kind == kindInFile || a.kind == kindIdent && s.r.test.lookup(a.str) != nil {
		p, _, ok := s.locate(m, a)
		if !ok {
			return
		}
		raw, _ := json.Marshal(map[string]string{"uri": string(uri.File(s.abs(p)))})
		args = append(args, raw)
		matchers = matchers[1:]
	}
	raw, err := s.c.Server.ExecuteCommand(s.r.t.Context(), &protocol.ExecuteCommandParams{Command: name, Arguments: args})
	if err != nil {
		s.errorf(m, "%s: %v", name, err)
		return
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		s.errorf(m, "%s returned %s: %v", name, raw, err)
		return
	}
	s.matchText(m, s.normalize(b.String())+"\n", matchers)
}

// matchText applies matchers to a result: a golden name compares the
// whole text, a string must be in it ("!string" must not), a regexp must
// match it.
func (s *session) matchText(m *mark, text string, matchers []value) {
	s.r.t.Helper()
	for _, a := range matchers {
		switch {
		case a.kind == kindIdent:
			if g := s.goldenFor(m, a); g != nil {
				s.compareGolden(m, g, map[string]string{"": text})
			}
		case a.kind == kindString && strings.HasPrefix(a.str, "!"):
			if absent := a.str[1:]; strings.Contains(text, absent) {
				s.errorf(m, "the result has %q:\n%s", absent, indent(text))
			}
		case a.kind == kindString || a.kind == kindRegexp:
			if !matches(a, text) {
				s.errorf(m, "the result lacks %s:\n%s", a, indent(text))
			}
		default:
			s.errorf(m, "want a golden name, a string or re\"pattern\", got %s", a)
		}
	}
}
