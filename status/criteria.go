package status

import (
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// criteria fills the per-VAL and per-milestone views as pi-charter's
// charter_status does (src/application/service.ts@16cab0f,
// computeValTotals and computeMilestoneStatusSummaries): every parsed VAL
// counts, a repeated id as often as it appears (duplicate-val-id says so in
// the editor), and a register without milestones shows one pseudo-milestone
// with an empty id and title holding every VAL. The views that show a VAL
// by its id show the block upstream reads (Status.byID).
func (c *computer) criteria() {
	st, d := c.st, c.d
	latest := c.view.Latest
	file := d.CriteriaFile
	if d.Legacy {
		file = d.CharterFile
	}
	rel := c.rel(d.CriteriaPath)
	st.Criteria = make([]Criterion, 0, len(d.Criteria.Criteria))
	for _, cr := range d.Criteria.Criteria {
		v := Criterion{CriterionID: cr.ID, Title: cr.Title, MilestoneID: cr.MilestoneID, Verifier: string(cr.Verifier.Kind),
			VerifierSpec: verifierSpec(cr), Command: cr.Command, RequireFreshEvidence: cr.RequireFreshEvidence,
			File: rel, Verify: verifyOf(cr.Verification(d.Charter)), later: !d.Criteria.Effective(cr)}
		if file != nil && file.Index != nil {
			v.Line = file.Index.Position(cr.HeadingSpan().Start).Line + 1
		}
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
	st.RegisterEmpty = st.ValTotal == 0 && !pi.Lifecycle(st.Status).Terminal()
	milestone := func(id, title string, ids []string) Milestone {
		ms := Milestone{MilestoneID: id, Title: title, CriterionIDs: ids}
		ms.ValPassCount, ms.ValCount = c.view.PassCount(ids)
		return ms
	}
	for _, m := range d.Criteria.Milestones {
		st.Milestones = append(st.Milestones, milestone(m.ID, m.Title, m.CriterionIDs()))
	}
	if len(st.Milestones) == 0 && len(st.Criteria) > 0 {
		ids := make([]string, len(st.Criteria))
		for i, v := range st.Criteria {
			ids[i] = v.CriterionID
		}
		st.Milestones = append(st.Milestones, milestone("", "", ids))
	}
}

// verifierSpec is the verifier as upstream's parser returns it.
func verifierSpec(cr *pi.Criterion) VerifierSpec {
	v := cr.Verifier
	spec := VerifierSpec{Kind: string(v.Kind)}
	switch v.Kind {
	case pi.VerifierCommand:
		spec.Command = cr.Command
	case pi.VerifierSubagent:
		spec.Agent, spec.Task = &v.Agent, &v.Task
	case pi.VerifierEvidenceExists:
		spec.EvidenceKind, spec.FreshSince = v.EvidenceKind, v.FreshSince
	}
	return spec
}

// origin names the file an outcome was read from, relative to the charter.
func origin(o pi.Result) string {
	if o.Origin == pi.FromCriterionState {
		return "criterion-state.json"
	}
	return o.EvidencePath
}
