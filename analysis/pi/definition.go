package pi

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Definition goes, from off in the charter file at path (ix is its line
// index), from a VAL id anywhere to its heading in the register
// (criteria.md, or a legacy charter.md), and from an evidence path
// (lastEvidencePath, narrativePath, …) to the file: relative to the
// charter directory (as lastEvidencePath is) or to the file's own folder
// (as narrativePath is). Only paths target accepts are targets (the
// server's: files of this charter directory that exist inside the
// workspace).
func Definition(v *View, path string, ix *source.Index, off int, target func(path string) bool) []feature.Location {
	line := ix.LineSpan(ix.Line(off))
	text := string(ix.Source()[line.Start:line.End])
	col := off - line.Start
	if id := feature.TokenAt(text, col, feature.IsWordByte); len(id) > 4 && strings.HasPrefix(id, "VAL-") {
		c := v.Criterion(id)
		if c == nil || v.Dir.CriteriaPath == "" {
			return nil
		}
		return []feature.Location{{Path: v.Dir.CriteriaPath, Span: c.HeadingSpan()}}
	}
	if p := feature.TokenAt(text, col, feature.IsPathByte); p != "" {
		return evidenceLocation(v.Dir.Path, path, p, target)
	}
	return nil
}

// evidenceLocation is the file a token p under the cursor leads to, when
// it looks like an evidence path (EvidenceTarget).
func evidenceLocation(dir, from, p string, target func(string) bool) []feature.Location {
	if !strings.Contains(p, "/") && !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".md") {
		return nil
	}
	if t := EvidenceTarget(dir, from, p, target); t != "" {
		return []feature.Location{{Path: t}}
	}
	return nil
}

// EvidenceTarget resolves an evidence path p written in the file from of
// the charter directory dir: relative to dir (as lastEvidencePath is) or
// to from's folder (as narrativePath is), never above them; the first that
// target accepts, else "". Go to definition and document links both
// resolve evidence paths here.
func EvidenceTarget(dir, from, p string, target func(string) bool) string {
	if clean := path.Clean(p); clean == ".." || strings.HasPrefix(clean, "../") {
		return ""
	}
	return feature.Resolve(p, target, dir, filepath.Dir(from))
}
