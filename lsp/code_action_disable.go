package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

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
		edit := analysis.DisableEdit(ix, line, string(code))
		t := editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &d.Version, Kind: d.Kind}
		we, err := s.workspaceEdit(t, textEdits(ix, []diag.Edit{edit}))
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
