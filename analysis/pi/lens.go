package pi

import (
	"fmt"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// Lens puts, in the register the file at path holds, a milestone's
// progress ("3/5 pass") over its heading and each VAL's status as of now
// ("✓ pass 2h ago", "✗ fail", "no evidence", "⚠ stale pass") over its own;
// clicking a VAL's lens records evidence for it (the server asks for the
// outcome).
func Lens(v *View, path string, now time.Time) []feature.Lens {
	cr := v.Register(path)
	if cr == nil {
		return nil
	}
	var out []feature.Lens
	for _, m := range cr.Milestones {
		pass, total := v.Progress(m)
		out = append(out, feature.Lens{Span: m.HeadingSpan, Command: feature.Command{Title: fmt.Sprintf("%d/%d pass", pass, total)}})
	}
	for _, c := range cr.Criteria {
		out = append(out, feature.Lens{Span: c.HeadingSpan(), Command: RecordCommand(lensTitle(v, c, now), c.ID, "")})
	}
	return out
}

// lensTitle is a VAL's status in a few characters (its lens and its inlay
// hint).
func lensTitle(v *View, c *Criterion, now time.Time) string {
	o, ok := v.Latest[c.ID]
	switch {
	case !ok:
		return "no evidence"
	case v.staleBlock(c):
		return "⚠ stale " + string(o.Outcome)
	}
	title := o.Outcome.Mark() + " " + string(o.Outcome)
	if o.TimeOK {
		title += " " + feature.Ago(now, o.Time)
	}
	return title
}

// RecordCommand is the command that records evidence for the VAL id of
// the document; without an outcome the server asks for one.
func RecordCommand(title, id string, outcome Outcome) feature.Command {
	args := map[string]any{"criterionId": id}
	if outcome != "" {
		args["outcome"] = string(outcome)
	}
	return feature.Command{Title: title, Name: feature.CmdRecordEvidence, Args: args}
}
