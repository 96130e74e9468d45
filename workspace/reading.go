package workspace

import (
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// ChartersEvidence is what the folder of the .charters/<id>/charter.md at
// path holds for charterfile.Decide, as this snapshot sees it: the text,
// state.json and events.jsonl (open documents over the disk).
func (s *Snapshot) ChartersEvidence(path string) charterfile.Evidence {
	ev := charterfile.Evidence{Text: s.File(path).Text}
	dir := filepath.Dir(path)
	if f := s.File(filepath.Join(dir, charterfile.StateFile)); f.Exists() && !f.TooLarge() {
		ev.State = charterfile.ParseState(f.Text)
	}
	if f := s.File(filepath.Join(dir, charterfile.EventsFile)); f.Exists() && !f.TooLarge() {
		ev.Events = charterfile.ParseEvents(f.Text)
	}
	return ev
}

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
		return charterfile.Decide(s.ChartersEvidence(path)).Reading()
	}
	return nil
}
