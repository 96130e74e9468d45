package ids

import (
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// AtPi is the id at byte offset off of the file at path, a file of the pi
// charter directory d whose text is src: a heading's VAL or milestone id as
// the parse reads it, a milestone in a lastFeatureId or featureId value, a
// VAL written anywhere else (EachVAL).
func AtPi(d *pi.Dir, path string, src []byte, off int) (Target, source.Span, bool) {
	in := func(sp source.Span) bool { return sp.Start <= off && off <= sp.End && sp.Len() > 0 }
	for _, f := range []*pi.File{d.CriteriaFile, d.CharterFile} {
		if f == nil || f.Path != path {
			continue
		}
		for _, reg := range registersIn(d, f) {
			for _, m := range reg.Milestones {
				if in(m.IDSpan) {
					return Target{Kind: Milestone, ID: m.ID, Dir: d.Path}, m.IDSpan, true
				}
			}
			for _, c := range reg.Criteria {
				if in(c.IDSpan()) {
					return Target{Kind: VAL, ID: c.ID, Dir: d.Path}, c.IDSpan(), true
				}
			}
		}
	}
	if filepath.Ext(path) == ".json" {
		var t Target
		var at source.Span
		eachJSONString(src, func(s jsonString) {
			feature := s.at("criteria", "*", "lastFeatureId") || s.at("featureId") || s.at("[]", "featureId")
			if !s.key && feature && in(s.lit) && s.value != "" {
				t, at = Target{Kind: Milestone, ID: s.value, Dir: d.Path}, s.lit
			}
		})
		if t.ID != "" {
			return t, at, true
		}
	}
	if id, sp, ok := TokenAt(VAL, src, off); ok {
		return Target{Kind: VAL, ID: id, Dir: d.Path}, sp, true
	}
	return Target{}, source.Span{}, false
}

// AtCharters is the criterion id at byte offset off of a file of the
// .charters/<id> folder dir whose text is src (EachCriterion's reading).
func AtCharters(dir string, src []byte, off int) (Target, source.Span, bool) {
	if id, sp, ok := TokenAt(Criterion, src, off); ok {
		return Target{Kind: Criterion, ID: id, Dir: dir}, sp, true
	}
	return Target{}, source.Span{}, false
}

// AtCode is the VAL id at byte offset off of a code or test file whose
// text is src. Its charter is not known from the file: Dir is empty.
func AtCode(src []byte, off int) (Target, source.Span, bool) {
	if id, sp, ok := TokenAt(VAL, src, off); ok {
		return Target{Kind: VAL, ID: id}, sp, true
	}
	return Target{}, source.Span{}, false
}
