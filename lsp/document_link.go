package lsp

import (
	"context"
	"path"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// DocumentLink links the paths a charter file holds to the files they
// name: evidence paths (criterion-state.json's lastEvidencePath, an
// evidence row's narrativePath and artifacts), the paths in Command: lines
// and a .charters/ charter's ## References entries. Only paths that lead
// to an existing file inside the workspace folders are links (evidence
// paths as go to definition resolves them, inside the charter folder).
func (s *Server) DocumentLink(ctx context.Context, params *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	out := []protocol.DocumentLink{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	var links []ids.Link
	var project, dir string
	switch {
	case d.piDir() != "":
		view := d.piView()
		if view == nil {
			return out, nil
		}
		dir, project = view.Dir.Path, view.Dir.Project
		links = ids.LinksPi(view.Dir, d.Path, d.Text, d.Index())
	case d.Kind == analysis.KindChartersCharter:
		view := d.chartersView()
		if view == nil || view.Charter == nil {
			return out, nil
		}
		dir = view.Path
		project = filepath.Dir(filepath.Dir(dir)) // the folder holding .charters/
		links = ids.LinksCharters(view.Charter, d.Text, d.Index())
	}
	for _, l := range links {
		target := ""
		switch {
		case l.Base == ids.FromEvidence:
			target = pi.EvidenceTarget(dir, d.Path, l.Path, d.inCharter(s, dir))
		case d.Kind == analysis.KindChartersCharter:
			target = s.fileTarget(d, l.Path, dir, project) // as go to definition resolves it
		default:
			target = s.fileTarget(d, l.Path, project)
		}
		if target == "" {
			continue
		}
		u := uri.File(target)
		tip := "Open " + feature.RelTo(project, target)
		out = append(out, protocol.DocumentLink{Range: toProtocolRange(l.Range), Target: &u, Tooltip: &tip})
	}
	return out, nil
}

// fileTarget is the file a relative path written in d names: the first of
// bases (folders) under which it is a regular file inside the workspace
// folders (symbolic links resolved); "" when there is none.
func (s *Server) fileTarget(d *doc, p string, bases ...string) string {
	if p == "" || path.IsAbs(p) {
		return ""
	}
	for _, base := range bases {
		if base == "" {
			continue
		}
		target := filepath.Join(base, filepath.FromSlash(path.Clean(p)))
		if !s.InWorkspace(target) {
			continue
		}
		if fi, err := d.snap.FS().Stat(target); err == nil && fi.Mode().IsRegular() {
			return target
		}
	}
	return ""
}
