package lsp

import (
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// definitionCharters jumps, in a .charters/<id>/charter.md, from a Depends
// id to its criterion's heading, and from a file path (a References entry,
// a note naming work/…) to the file: relative to the charter folder, else
// to the project (the folder holding .charters). Only existing files
// inside the workspace are targets.
func (s *Server) definitionCharters(d *doc, off int) protocol.DefinitionResult {
	c := d.charter()
	ix := d.Index()
	if id, _, target := c.DependsAt(off); id != "" {
		if target == nil {
			return nil
		}
		return &protocol.Location{URI: d.URI, Range: toProtocolRange(ix.Range(target.HeadingSpan))}
	}
	line := ix.LineSpan(ix.Line(off))
	p := tokenAt(string(d.Text[line.Start:line.End]), off-line.Start, isPathByte)
	if !strings.Contains(p, "/") && !strings.Contains(p, ".") {
		return nil
	}
	p = strings.TrimRight(p, ".") // a path at the end of a sentence
	if p == "" || path.IsAbs(p) {
		return nil
	}
	dir := filepath.Dir(d.Path)
	if target := s.fileTarget(d, p, dir, filepath.Dir(filepath.Dir(dir))); target != "" {
		return &protocol.Location{URI: uri.File(target), Range: toProtocolRange(source.Range{})}
	}
	return nil
}
