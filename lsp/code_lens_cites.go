package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
)

// codeLensCites says over each VAL heading how many places of the
// project's code and tests cite the VAL (the snapshot's Cites: the files
// analysis/ids counts as code and tests). Nothing when none does.
func (s *Server) codeLensCites(d *doc) []protocol.CodeLens {
	view := d.piView()
	if view == nil || view.Register(d.Path) == nil || view.Dir.Project == "" {
		return nil
	}
	cites, err := d.snap.Cites(d.ctx, view.Dir.Project)
	if err != nil {
		return nil
	}
	ix := d.Index()
	var out []protocol.CodeLens
	for _, c := range view.Register(d.Path).Criteria {
		refs := cites[c.ID]
		if len(refs) == 0 {
			continue
		}
		files := map[string]bool{}
		for _, r := range refs {
			files[r.Path] = true
		}
		title := fmt.Sprintf("cited in %d place%s", len(refs), plural(len(refs)))
		if len(files) > 1 {
			title += fmt.Sprintf(" (%d files)", len(files))
		}
		out = append(out, protocol.CodeLens{Range: toProtocolRange(ix.Range(c.HeadingSpan)), Command: protocol.Command{Title: title}})
	}
	return out
}
