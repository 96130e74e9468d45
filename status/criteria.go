package status

import (
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// record is one recorded outcome of a VAL, from either source.
type record struct {
	outcome, ts, summary, evidencePath, featureID, source, recordedBy, because string
	from                                                                       string
	at                                                                         time.Time
	timeOK                                                                     bool
}

// latestRecords returns the latest record per VAL: the newest by ts of the
// criterion-state.json entry and every schema-valid evidence row. On a tie
// criterion-state.json wins, being what upstream itself reads.
func latestRecords(d *pi.Dir) map[string]record {
	out := map[string]record{}
	offer := func(id string, r record) {
		r.at, r.timeOK = pi.ParseTime(r.ts)
		cur, ok := out[id]
		if !ok || (r.timeOK && (!cur.timeOK || r.at.After(cur.at))) {
			out[id] = r
		}
	}
	if cs := d.CriterionState; cs != nil {
		for i := range cs.Entries {
			e := &cs.Entries[i]
			offer(e.ID, record{outcome: e.Outcome, ts: e.LastTs, summary: e.LastSummary, evidencePath: e.LastEvidencePath,
				featureID: e.LastFeatureID, source: e.Source, recordedBy: e.RecordedBy, because: e.Because, from: "criterion-state.json"})
		}
	}
	for _, run := range d.Runs {
		for i := range run.Rows {
			row := &run.Rows[i]
			if len(row.SchemaProblems()) > 0 {
				continue
			}
			offer(row.CriterionID, record{outcome: row.Outcome, ts: row.TS, summary: row.Summary, evidencePath: run.RelPath,
				featureID: row.FeatureID, source: row.Source, recordedBy: row.RecordedBy, because: row.Because, from: run.RelPath})
		}
	}
	return out
}

// criteria fills the per-VAL and per-milestone views.
func (c *computer) criteria() {
	st, d := c.st, c.d
	latest := latestRecords(d)
	c.latest = latest
	seen := map[string]bool{}
	for _, cr := range d.Criteria.Criteria {
		if seen[cr.ID] {
			continue // a duplicate id: upstream's map keeps one
		}
		seen[cr.ID] = true
		v := Criterion{CriterionID: cr.ID, Title: cr.Title, MilestoneID: cr.MilestoneID, Verifier: string(cr.Verifier.Kind),
			Command: cr.Command, RequireFreshEvidence: cr.RequireFreshEvidence}
		if r, ok := latest[cr.ID]; ok {
			v.Outcome, v.LastTs, v.LastSummary, v.LastEvidencePath = r.outcome, r.ts, r.summary, r.evidencePath
			v.LastFeatureID, v.Source, v.RecordedBy, v.Because, v.From = r.featureID, r.source, r.recordedBy, r.because, r.from
			if r.timeOK {
				age := c.opts.Now.Sub(r.at).Milliseconds()
				v.AgeMs = &age
			}
		}
		if v.Outcome == "pass" {
			st.ValPass++
		}
		st.Criteria = append(st.Criteria, v)
	}
	st.ValTotal = len(st.Criteria)
	st.RegisterEmpty = st.ValTotal == 0
	for _, m := range d.Criteria.Milestones {
		ms := Milestone{MilestoneID: m.ID, Title: m.Title, CriterionIDs: m.CriterionIDs()}
		ms.ValCount = len(ms.CriterionIDs)
		for _, id := range ms.CriterionIDs {
			if latest[id].outcome == "pass" {
				ms.ValPassCount++
			}
		}
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
