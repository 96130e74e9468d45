package status

import (
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// criteria fills the per-VAL and per-milestone views.
func (c *computer) criteria() {
	st, d := c.st, c.d
	latest := c.view.Latest
	seen := map[string]bool{}
	for _, cr := range d.Criteria.Criteria {
		if seen[cr.ID] {
			continue // a duplicate id: upstream's map keeps one
		}
		seen[cr.ID] = true
		v := Criterion{CriterionID: cr.ID, Title: cr.Title, MilestoneID: cr.MilestoneID, Verifier: string(cr.Verifier.Kind),
			Command: cr.Command, RequireFreshEvidence: cr.RequireFreshEvidence}
		if r, ok := latest[cr.ID]; ok {
			v.Outcome, v.LastTs, v.LastSummary, v.LastEvidencePath = r.Outcome, r.TS, r.Summary, r.EvidencePath
			v.LastFeatureID, v.Source, v.RecordedBy, v.Because, v.From = r.FeatureID, r.Source, r.RecordedBy, r.Because, origin(r)
			if r.TimeOK {
				age := c.now.Sub(r.Time).Milliseconds()
				v.AgeMs = &age
			}
		}
		if c.view.Passes(cr.ID) {
			st.ValPass++
		}
		st.Criteria = append(st.Criteria, v)
	}
	st.ValTotal = len(st.Criteria)
	st.RegisterEmpty = st.ValTotal == 0
	for _, m := range d.Criteria.Milestones {
		ms := Milestone{MilestoneID: m.ID, Title: m.Title, CriterionIDs: m.CriterionIDs()}
		ms.ValPassCount, ms.ValCount = c.view.Progress(m)
		st.Milestones = append(st.Milestones, ms)
	}
}

// criterion returns the per-VAL view of id.
func (c *computer) criterion(id string) *Criterion {
	for i := range c.st.Criteria {
		if c.st.Criteria[i].CriterionID == id {
			return &c.st.Criteria[i]
		}
	}
	return nil
}

// origin names the file an outcome was read from, relative to the charter.
func origin(o pi.Outcome) string {
	if o.Origin == pi.FromCriterionState {
		return "criterion-state.json"
	}
	return o.EvidencePath
}
