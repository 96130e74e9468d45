package pi

import (
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// InlayHints puts, after each VAL heading of the register the file at
// path holds, its latest outcome and its age as of now, in the code lens's
// words ("✓ pass 2h ago", "⚠ stale pass", "no evidence").
func InlayHints(v *View, path string, now time.Time) []feature.InlayHint {
	cr, f := v.Register(path), v.Dir.File(path)
	if cr == nil || f == nil {
		return nil
	}
	out := make([]feature.InlayHint, 0, len(cr.Criteria))
	for _, c := range cr.Criteria {
		out = append(out, feature.InlayHint{At: feature.LineEnd(f.Src, c.HeadingSpan()), Label: lensTitle(v, c, now)})
	}
	return out
}
