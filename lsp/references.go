package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// References lists every place the id under the cursor occurs (ids.Use):
// a VAL or milestone id of a pi charter, a C<n> id of a .charters/
// charter, in any file of its charter, and for a VAL the code and tests of
// the project that cite it (the snapshot's Cites). In a code file, a VAL
// id leads to the charters of the project that define it.
func (s *Server) References(ctx context.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	use, err := d.idUseAt(d.Index().Offset(fromProtocolPosition(params.Position)))
	if err != nil || use == nil {
		return nil, err
	}
	out := []protocol.Location{}
	for _, r := range use.Refs {
		if r.Role == ids.RoleDefinition && !params.Context.IncludeDeclaration {
			continue
		}
		out = append(out, protocol.Location{URI: uri.File(r.Path), Range: toProtocolRange(r.Range)})
	}
	return out, nil
}

// idUseAt is the id at byte offset off of d and its places, or nil when
// there is none: the document's family says which (ids.UsePi,
// ids.UseCharters, ids.UseCode) from the snapshot's views and cites.
func (d *doc) idUseAt(off int) (*ids.Use, error) {
	cites := func(project string) (map[string][]ids.Ref, error) { return d.snap.Cites(d.ctx, project) }
	switch {
	case d.piDir() != "":
		view := d.piView()
		if view == nil {
			return nil, d.ctx.Err()
		}
		return ids.UsePi(d.ctx, d.snap.FS(), view.Dir, d.Path, d.Text, off, cites)
	case charterfile.DirOf(d.Path) != "":
		view, err := d.snap.ChartersView(d.ctx, charterfile.DirOf(d.Path))
		if err != nil {
			return nil, err
		}
		return ids.UseCharters(d.snap.FS(), view.Dir, d.Text, off), nil
	}
	charters := func() ([]*pi.Dir, error) {
		found, err := d.snap.Charters(d.ctx)
		if err != nil {
			return nil, err
		}
		dirs := make([]*pi.Dir, 0, len(found.PiCharters))
		for _, dir := range found.PiCharters {
			view, err := d.snap.PiView(d.ctx, dir)
			if err != nil {
				return nil, err
			}
			dirs = append(dirs, view.Dir)
		}
		return dirs, nil
	}
	return ids.UseCode(d.ctx, d.snap.FS(), d.Path, d.Text, off, charters, cites)
}
