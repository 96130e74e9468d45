package charterfile

import (
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Definition goes, from off in the folder's charter.md (ix is its line
// index), from a Depends id to its criterion's heading, and from a file
// path (a References entry, a note naming work/…) to the file: relative
// to the charter folder, else to the project (the folder holding
// .charters). Only paths target accepts are targets (the server's: files
// that exist inside the workspace).
func Definition(v *View, ix *source.Index, off int, target func(path string) bool) []feature.Location {
	c := v.Charter
	if c == nil {
		return nil
	}
	if id, _, to := c.DependsAt(off); id != "" {
		if to == nil {
			return nil
		}
		return []feature.Location{{Path: v.CharterPath, Span: to.HeadingSpan}}
	}
	line := ix.LineSpan(ix.Line(off))
	p := feature.TokenAt(string(ix.Source()[line.Start:line.End]), off-line.Start, feature.IsPathByte)
	if !strings.Contains(p, "/") && !strings.Contains(p, ".") {
		return nil
	}
	p = strings.TrimRight(p, ".") // a path at the end of a sentence
	if t := feature.Resolve(p, target, v.Path, filepath.Dir(filepath.Dir(v.Path))); t != "" {
		return []feature.Location{{Path: t}}
	}
	return nil
}
