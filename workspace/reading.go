package workspace

import (
	"context"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Reading is which generation the charter file at path is read as, and
// why: an rp1 charter's (rp1.Era) or a .charters/<id>/charter.md's
// (charterfile.Era). Nil for other files: pi-charter v3 has one grammar.
func (s *Snapshot) Reading(path string) *feature.Reading {
	f := s.File(path)
	if !f.Exists() || f.TooLarge() {
		return nil
	}
	switch f.Kind() {
	case analysis.KindRP1Charter:
		return f.RP1().Era.Reading()
	case analysis.KindChartersCharter:
		if v, err := s.ChartersView(context.Background(), vfs.Dir(path)); err == nil {
			return v.Era.Reading()
		}
	}
	return nil
}
