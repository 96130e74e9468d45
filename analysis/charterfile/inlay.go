package charterfile

import (
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// InlayHints puts, after each criterion heading of the folder's
// charter.md, its status and how long ago the journal recorded the change
// to it ("pass 3d ago"), or "⚠ stale pass" for a stale pass.
func InlayHints(v *View, now time.Time) []feature.InlayHint {
	if v.Charter == nil {
		return nil
	}
	out := make([]feature.InlayHint, 0, len(v.Charter.Criteria))
	for _, cr := range v.Charter.Criteria {
		label := string(cr.Status)
		if v.Stale[cr.ID] {
			label = "⚠ stale " + label
		} else if ch, ok := v.Events.LastStatusChange(cr.ID); ok && ch.To == string(cr.Status) {
			if at, ok := pi.ParseTime(ch.TS); ok {
				label += " " + feature.Ago(now, at)
			}
		}
		out = append(out, feature.InlayHint{At: feature.LineEnd(v.CharterSrc, cr.HeadingSpan), Label: label})
	}
	return out
}
