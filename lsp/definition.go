package lsp

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Definition jumps from a VAL id anywhere in a pi charter's files to its
// heading in the register (criteria.md, or a legacy charter.md), and from an
// evidence path (lastEvidencePath, narrativePath, …) to the file; in a
// .charters/ charter, from a Depends id or a path (definition_charters.go).
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok || d.Kind == analysis.KindNone {
		return nil, nil
	}
	ix := d.Index()
	off := ix.Offset(fromProtocolPosition(params.Position))
	if d.Kind == analysis.KindChartersCharter {
		if v := d.chartersView(); v != nil {
			return s.toProtocolLocation(d, charterfile.Definition(v, ix, off, d.target(s))), nil
		}
		return nil, nil
	}
	dir := analysis.PiCharterDir(d.Path)
	if dir == "" {
		return nil, nil
	}
	line := ix.Line(off)
	start, end := ix.LineStart(line), ix.LineEnd(line)
	text := string(d.Text[start:end])
	col := off - start

	if id := tokenAt(text, col, isIDByte); len(id) > 4 && strings.HasPrefix(id, "VAL-") {
		return valLocation(d.piView(), id), nil
	}
	if p := tokenAt(text, col, isPathByte); p != "" {
		return s.evidenceLocation(d, dir, p), nil
	}
	return nil, nil
}

// valLocation is the heading of VAL id in the charter's register.
func valLocation(view *pi.View, id string) protocol.DefinitionResult {
	if view == nil {
		return nil
	}
	c := view.Criterion(id)
	if c == nil || view.Dir.CriteriaPath == "" {
		return nil
	}
	f := view.Dir.File(view.Dir.CriteriaPath)
	if f == nil {
		return nil
	}
	return &protocol.Location{URI: uri.File(f.Path), Range: toProtocolRange(f.Index.Range(c.HeadingSpan))}
}

// evidenceLocation resolves a path written in a charter file: relative to
// the charter directory (as lastEvidencePath is) or to the file's own
// folder (as narrativePath is). Only existing files inside the charter
// directory are targets.
func (s *Server) evidenceLocation(d *doc, dir, p string) protocol.DefinitionResult {
	from := d.Path
	if !strings.Contains(p, "/") && !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".md") {
		return nil
	}
	clean := path.Clean(p)
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return nil
	}
	for _, base := range []string{dir, filepath.Dir(from)} {
		target := filepath.Join(base, filepath.FromSlash(clean))
		// Lexically inside the charter directory, and still inside the
		// workspace once symbolic links are resolved: a link must not lead
		// the editor to open a file from elsewhere.
		if analysis.PiCharterDir(target) != dir || !s.InWorkspace(target) {
			continue
		}
		if f := d.snap.File(target); f.Exists() || f.TooLarge() {
			return &protocol.Location{URI: uri.File(target), Range: toProtocolRange(source.Range{})}
		}
	}
	return nil
}

// tokenAt returns the run of bytes accepted by in around column col.
func tokenAt(line string, col int, in func(byte) bool) string {
	i, j := tokenBounds(line, col, in)
	return line[i:j]
}

// tokenBounds are the byte columns of the run accepted by in around col.
func tokenBounds(line string, col int, in func(byte) bool) (int, int) {
	col = min(max(col, 0), len(line))
	i, j := col, col
	for i > 0 && in(line[i-1]) {
		i--
	}
	for j < len(line) && in(line[j]) {
		j++
	}
	return i, j
}

func isPathByte(b byte) bool {
	return isIDByte(b) || b == '/' || b == '.' || b == '_'
}
