package pi

import (
	"path/filepath"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// OutcomeOrigin says where a latest outcome was read.
type OutcomeOrigin string

const (
	FromCriterionState OutcomeOrigin = "criterion-state"
	FromEvidence       OutcomeOrigin = "evidence"
)

// Result is the latest recorded result of one VAL.
type Result struct {
	CriterionID string
	Outcome     Outcome // pass, fail, partial (as written)
	TS          string  // as written
	Time        time.Time
	TimeOK      bool // TS parsed
	Summary     string
	Source      Source
	RecordedBy  string
	Because     string
	FeatureID   string

	Origin OutcomeOrigin
	File   string      // absolute path of the file it came from
	Span   source.Span // the criterion-state entry's key or the evidence row
	// EvidencePath is the run's evidence.json relative to the charter dir:
	// lastEvidencePath for criterion-state, the run itself for a row.
	EvidencePath string
}

// LatestResults returns, per VAL id, the newest record among
// criterion-state.json and every evidence row (by time; an unparsable time
// counts as oldest; on a tie criterion-state wins, as it is upstream's own
// record of the latest outcome). Evidence rows that break the schema are not
// outcomes (an "outcome": "ok" must not count as a pass; such rows are
// reported as evidence-invalid). Ids that criteria.md does not define are
// included too.
func LatestResults(d *Dir) map[string]Result {
	out := make(map[string]Result, len(d.Evidence.Newest))
	for id, o := range d.Evidence.Newest {
		out[id] = o
	}
	if d.CriterionState != nil {
		for _, e := range d.CriterionState.Entries {
			o := Result{CriterionID: e.ID, Outcome: e.Outcome, TS: e.LastTs, Summary: e.LastSummary,
				Source: e.Source, RecordedBy: e.RecordedBy, Because: e.Because, FeatureID: e.LastFeatureID,
				Origin: FromCriterionState, File: d.CriterionStateFile.Path, Span: e.KeySpan,
				EvidencePath: filepath.ToSlash(e.LastEvidencePath)}
			o.Time, o.TimeOK = ParseTime(e.LastTs)
			if cur, ok := out[o.CriterionID]; !ok || newer(o, cur) {
				out[o.CriterionID] = o
			}
		}
	}
	return out
}

// newer reports whether a should replace b as the latest record.
func newer(a, b Result) bool {
	switch {
	case a.TimeOK && !b.TimeOK:
		return true
	case !a.TimeOK:
		return false
	case a.Time.After(b.Time):
		return true
	case a.Time.Equal(b.Time):
		return a.Origin == FromCriterionState && b.Origin != FromCriterionState
	}
	return false
}
