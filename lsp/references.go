package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// References lists every place the id under the cursor occurs: a VAL or
// milestone id of a pi charter, a C<n> id of a .charters/ charter, in any
// file of its charter (analysis/ids), and for a VAL the code and tests of
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
	for _, r := range use.refs {
		if r.Role == ids.RoleDefinition && !params.Context.IncludeDeclaration {
			continue
		}
		out = append(out, protocol.Location{URI: uri.File(r.Path), Range: toProtocolRange(r.Range)})
	}
	return out, nil
}

// idUse is an id under the cursor and every place it occurs.
type idUse struct {
	target ids.Target
	span   source.Span // where the cursor's occurrence is, in the document
	refs   []ids.Ref
	// charters holds the charter folders of the id: one, except for a VAL
	// cited in code that several charters of the project define.
	charters []string
	// taken says why an id cannot be the new name, blocked why the id
	// cannot be renamed at all (rename.go).
	taken   func(kind ids.Kind, id string) string
	blocked string
}

// idUseAt is the id at byte offset off of d, or nil when there is none.
func (d *doc) idUseAt(off int) (*idUse, error) {
	switch {
	case d.piDir() != "":
		view := d.piView()
		if view == nil {
			return nil, d.ctx.Err()
		}
		t, span, ok := ids.AtPi(view.Dir, d.Path, d.Text, off)
		if !ok {
			return nil, nil
		}
		refs, err := d.piRefs(t)
		return &idUse{target: t, span: span, refs: refs, charters: []string{t.Dir}, blocked: ids.BlockedInPi(view.Dir, t),
			taken: func(k ids.Kind, id string) string { return ids.TakenInPi(view.Dir, k, id) }}, err
	case charterfile.DirOf(d.Path) != "":
		dir := charterfile.DirOf(d.Path)
		t, span, ok := ids.AtCharters(dir, d.Text, off)
		if !ok {
			return nil, nil
		}
		cd := charterfile.LoadDir(d.snap.FS(), dir)
		return &idUse{target: t, span: span, refs: ids.InCharters(d.snap.FS(), cd, t.ID), charters: []string{dir},
			taken: func(_ ids.Kind, id string) string { return ids.TakenInCharters(cd, id) }}, nil
	}
	t, span, ok := ids.AtCode(d.Text, off)
	if !ok {
		return nil, nil
	}
	use := &idUse{target: t, span: span}
	found, err := d.snap.Charters(d.ctx)
	if err != nil {
		return nil, err
	}
	for _, dir := range found.PiCharters {
		view, err := d.snap.PiView(d.ctx, dir)
		if err != nil {
			return nil, err
		}
		if view.Dir.Project == "" || !vfs.Below(view.Dir.Project, d.Path) || view.Criterion(t.ID) == nil {
			continue
		}
		ct := ids.Target{Kind: ids.VAL, ID: t.ID, Dir: dir}
		refs, err := d.piRefs(ct)
		if err != nil {
			return nil, err
		}
		use.target, use.charters = ct, append(use.charters, dir)
		use.refs = append(use.refs, refs...)
		use.taken = func(k ids.Kind, id string) string { return ids.TakenInPi(view.Dir, k, id) }
		use.blocked = ids.BlockedInPi(view.Dir, ct)
	}
	if len(use.charters) == 0 {
		return nil, nil
	}
	if len(use.charters) > 1 {
		use.refs = dedupe(use.refs) // the project's cites, once per charter
		use.taken = func(ids.Kind, string) string {
			return fmt.Sprintf("%d charters of this project define %s (%s); rename it from the criteria.md of the one you mean",
				len(use.charters), t.ID, relList(use.charters))
		}
	}
	return use, nil
}

// piRefs are the places of a pi charter's id: its charter's files, and for
// a VAL the project's code and tests.
func (d *doc) piRefs(t ids.Target) ([]ids.Ref, error) {
	view, err := d.snap.PiView(d.ctx, t.Dir)
	if err != nil {
		return nil, err
	}
	refs, err := ids.InPi(d.ctx, d.snap.FS(), view.Dir, t)
	if err != nil || t.Kind != ids.VAL || view.Dir.Project == "" {
		return refs, err
	}
	cites, err := d.snap.Cites(d.ctx, view.Dir.Project)
	return append(refs, cites[t.ID]...), err
}

func dedupe(refs []ids.Ref) []ids.Ref {
	type key struct {
		path string
		span source.Span
	}
	seen := map[key]bool{}
	out := refs[:0]
	for _, r := range refs {
		if k := (key{r.Path, r.Span}); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// relList names charter folders by their ids.
func relList(dirs []string) string {
	out := ""
	for i, dir := range dirs {
		if i > 0 {
			out += ", "
		}
		out += filepath.Base(dir)
	}
	return out
}
