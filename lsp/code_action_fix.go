package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// fixActions converts the fixes analysis attached to the document's
// diagnostics (diag.Fix) into quick fixes for the client's diagnostics in
// the request. A client diagnostic is matched by code and range with one of
// the current version, so a diagnostic that went stale gets no edit.
func (s *Server) fixActions(d *doc, pds []protocol.Diagnostic) []*protocol.CodeAction {
	type key struct {
		code string
		at   protocol.Range
	}
	var wanted []protocol.Diagnostic
	for _, pd := range pds {
		if src, _ := pd.Source.Get(); src == diag.Source {
			wanted = append(wanted, pd)
		}
	}
	if len(wanted) == 0 || !s.InWorkspace(d.Path) {
		return nil // no check at all when nothing could be fixed
	}
	ds, err := d.snap.Diagnostics(d.ctx, d.Path)
	if err != nil {
		return nil
	}
	fixes := map[key]*diag.Fix{}
	for _, x := range ds {
		if x.File == d.Path && x.Fix != nil && len(x.Fix.Edits) > 0 {
			fixes[key{x.Code.String(), toProtocolRange(x.Range)}] = x.Fix
		}
	}
	var out []*protocol.CodeAction
	for _, pd := range wanted {
		code, _ := pd.Code.(protocol.String)
		f := fixes[key{string(code), pd.Range}]
		if f == nil {
			continue
		}
		edits := make([]protocol.TextEdit, len(f.Edits))
		for i, e := range f.Edits {
			edits[i] = protocol.TextEdit{Range: toProtocolRange(e.Range), NewText: e.NewText}
		}
		v := d.Version
		edit, err := s.workspaceEdit(editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &v, Kind: d.Kind}, edits)
		if err != nil {
			continue
		}
		preferred := !f.Unsafe // an unsafe fix may change what the file says: offered, never preferred
		out = append(out, &protocol.CodeAction{Title: f.Title, Kind: actionKind(protocol.CodeActionKindQuickFix),
			Diagnostics: []protocol.Diagnostic{pd}, IsPreferred: &preferred, Edit: edit})
	}
	return out
}
