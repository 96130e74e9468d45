package charterfile

import (
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// Actions move the charter's work forward at off, each an edit of
// charter.md itself (the file is the record; no sidecar is written):
//   - on a criterion: set its status to each other token its grammar reads
//     (ADR-0014: its Evidence line), the equivalent of recording evidence;
//   - in an ADR-0014 criterion, rewrite its Evidence line as a Status line;
//     anywhere with Evidence lines left, rewrite them all (ADR-0015);
//   - on a phase that is not done, mark it done.
func Actions(v *View, off int) []feature.Action {
	c := v.Charter
	if c == nil {
		return nil
	}
	var fixes []*diag.Fix
	if cr, _ := c.CriterionAt(off); cr != nil && c.Criterion(cr.ID) == cr {
		for _, tok := range StatusTokens(c.Generation, "Status") {
			if tok == cr.Status && cr.StatusLine != nil && !cr.Legacy {
				continue
			}
			if f, err := c.SetStatus(cr.ID, tok); err == nil {
				fixes = append(fixes, f)
			}
		}
		if c.Generation == FI14 {
			if f, err := c.EvidenceToStatus(cr.ID); err == nil && f != nil {
				fixes = append(fixes, f)
			}
		}
	}
	if f, err := c.EvidenceToStatus(""); err == nil && f != nil {
		fixes = append(fixes, f)
	}
	if ph, n := c.PhaseAt(off); ph != nil && ph.Status != PhaseDone {
		if f, err := c.MarkPhaseDone(n); err == nil {
			fixes = append(fixes, f)
		}
	}
	out := make([]feature.Action, len(fixes))
	for i, f := range fixes {
		out[i] = feature.Action{Title: f.Title, Kind: feature.KindStatus, Fix: f}
	}
	return out
}
