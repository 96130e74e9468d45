package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
)

// DocumentLink links the paths a charter file holds to the files they
// name (ids.DocumentLinksPi, ids.DocumentLinksCharters): evidence paths
// (criterion-state.json's lastEvidencePath, an evidence row's
// narrativePath and artifacts), the paths in Command: lines and a
// .charters/ charter's ## References entries. Only paths that lead to an
// existing file inside the workspace folders are links (evidence paths
// inside the charter folder).
func (s *Server) DocumentLink(ctx context.Context, params *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	out := []protocol.DocumentLink{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	var links []feature.DocumentLink
	switch {
	case d.piDir() != "":
		if v := d.piView(); v != nil {
			links = ids.DocumentLinksPi(v.Dir, d.Path, d.Text, d.Index(), d.inCharter(s, v.Dir.Path), d.regularFile(s))
		}
	case d.Kind == analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			links = ids.DocumentLinksCharters(v.Dir, d.Index(), d.regularFile(s))
		}
	}
	ix := d.Index()
	for _, l := range links {
		target, tip := uri.File(l.Target), l.Tooltip
		out = append(out, protocol.DocumentLink{Range: toProtocolRange(ix.Range(l.Span)), Target: &target, Tooltip: &tip})
	}
	return out, nil
}
