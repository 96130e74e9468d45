package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
)

const disableNextLine = "charter-lsp-disable-next-line"

// disableActions offer, for each charter diagnostic in the request, a quick
// fix that silences its code on its line with an inline comment
// (analysis/suppress.go): a new "<!-- charter-lsp-disable-next-line CODE -->"
// line above it, or CODE added to such a comment already there. Markdown
// files only: JSON has no comments.
func (s *Server) disableActions(d *doc, ds []protocol.Diagnostic) []*protocol.CodeAction {
	if !strings.EqualFold(filepath.Ext(d.Path), ".md") || !s.InWorkspaceURI(d.URI) {
		return nil
	}
	ix := d.Index()
	seen := map[string]bool{}
	var out []*protocol.CodeAction
	for _, pd := range ds {
		code, ok := pd.Code.(protocol.String)
		if _, known := diag.ParseCode(string(code)); !ok || !known {
			continue
		}
		if src, ok := pd.Source.Get(); ok && src != diag.Source {
			continue // another tool's diagnostic
		}
		line := int(pd.Range.Start.Line)
		if line >= ix.LineCount() {
			continue
		}
		key := fmt.Sprintf("%d:%s", line, code)
		if seen[key] {
			continue
		}
		seen[key] = true
		edit := disableEdit(ix, line, string(code))
		t := editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &d.Version, Kind: d.Kind}
		we, err := s.workspaceEdit(t, textEdits(ix, []interview.Edit{edit}))
		if err != nil {
			continue
		}
		title := fmt.Sprintf("Disable %s for this line", code)
		out = append(out, &protocol.CodeAction{
			Title: title, Kind: actionKind(protocol.CodeActionKindQuickFix),
			Diagnostics: []protocol.Diagnostic{pd}, Edit: we,
		})
	}
	return out
}

// disableEdit adds code to a disable-next-line comment on the line above
// line, or inserts such a comment line, indented like line.
func disableEdit(ix *source.Index, line int, code string) interview.Edit {
	src := ix.Source()
	if line > 0 {
		prev := ix.LineSpan(line - 1)
		text := src[prev.Start:prev.End]
		t := bytes.TrimSpace(text)
		if bytes.HasPrefix(t, []byte("<!-- "+disableNextLine)) && bytes.HasSuffix(t, []byte("-->")) {
			at := prev.Start + bytes.LastIndex(text, []byte("-->"))
			for at > prev.Start && (src[at-1] == ' ' || src[at-1] == '\t') {
				at--
			}
			return interview.Edit{Span: source.Span{Start: at, End: at}, NewText: " " + code}
		}
	}
	start := ix.LineStart(line)
	indent := start
	for indent < len(src) && (src[indent] == ' ' || src[indent] == '\t') {
		indent++
	}
	comment := string(src[start:indent]) + "<!-- " + disableNextLine + " " + code + " -->" + source.LineEndingAt(src, ix.LineEnd(line))
	return interview.Edit{Span: source.Span{Start: start, End: start}, NewText: comment}
}
