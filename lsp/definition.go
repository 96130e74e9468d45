package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// Definition jumps, in a .charters/ charter, from a Depends id or a path
// (charterfile.Definition), and in a pi charter's files from a VAL id to
// its heading in the register or from an evidence path to the file
// (pi.Definition). A target is a file that exists in the workspace (and,
// for pi, in the same charter directory).
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok || d.Kind == analysis.KindNone {
		return nil, nil
	}
	ix := d.Index()
	off := ix.Offset(fromProtocolPosition(params.Position))
	if d.Kind == analysis.KindChartersCharter {
		if v := d.chartersView(); v != nil {
			return s.toProtocolLocation(d, charterfile.Definition(v, ix, off, d.regularFile(s))), nil
		}
		return nil, nil
	}
	v := d.piView()
	if v == nil {
		return nil, nil
	}
	return s.toProtocolLocation(d, pi.Definition(v, d.Path, ix, off, d.inCharter(s, v.Dir.Path))), nil
}
