package lsp

import (
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// codeLensPi puts a milestone's progress ("3/5 pass") over its heading and
// each VAL's status ("✓ pass 2h ago", "✗ fail", "no evidence", "stale")
// over its own; clicking a VAL's lens records evidence (the server asks for
// the outcome).
func (s *Server) codeLensPi(d *doc) []protocol.CodeLens {
	dir := analysis.PiCharterDir(d.Path)
	if dir == "" {
		return nil
	}
	view := d.piView()
	cr := d.register(view)
	if view == nil || cr == nil {
		return nil
	}
	ix := d.Index()
	now := time.Now()
	var out []protocol.CodeLens
	for _, m := range cr.Milestones {
		pass, total := view.Progress(m)
		out = append(out, protocol.CodeLens{
			Range:   toProtocolRange(ix.Range(m.HeadingSpan)),
			Command: protocol.Command{Title: fmt.Sprintf("%d/%d pass", pass, total)},
		})
	}
	for _, c := range cr.Criteria {
		cmd := recordCommand(valLensTitle(view, c, now), d, c.ID, "")
		out = append(out, protocol.CodeLens{Range: toProtocolRange(ix.Range(c.HeadingSpan)), Command: cmd})
	}
	return out
}

// valLensTitle is a VAL's status in a few characters.
func valLensTitle(view *pi.View, c *pi.Criterion, now time.Time) string {
	o, ok := view.Latest[c.ID]
	switch {
	case !ok:
		return "no evidence"
	case view.StaleByID[c.ID].Criterion != nil:
		return "⚠ stale " + string(o.Outcome)
	}
	title := o.Outcome.Mark() + " " + string(o.Outcome)
	if o.TimeOK {
		title += " " + feature.Ago(now, o.Time)
	}
	return title
}
