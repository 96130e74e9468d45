package pi

import "time"

// StaleEvidence is a fresh-required VAL whose latest outcome is a pass that
// predates the newest source change (an unparsable time counts as stale, as
// upstream rules).
type StaleEvidence struct {
	Criterion  *Criterion
	Outcome    Result
	SourceTime time.Time
	SourcePath string // the newest source file, when the clock knows it
}

// FindStale applies upstream's staleness rule to every fresh-required VAL.
// The clock is asked once, and only when some VAL could be stale; a project
// without source folders has nothing stale.
func FindStale(d *Dir, latest map[string]Result, clock SourceClock) []StaleEvidence {
	if d.Project == "" || d.Criteria == nil {
		return nil
	}
	var out []StaleEvidence
	var newest time.Time
	var newestPath string
	var have, asked bool
	for _, v := range d.Criteria.Criteria {
		if !v.RequireFreshEvidence {
			continue
		}
		o, ok := latest[v.ID]
		if !ok || o.Outcome != Pass {
			continue
		}
		if !asked {
			newest, newestPath, have = clock.Newest(d.Project)
			asked = true
		}
		if !have {
			return nil
		}
		if o.TimeOK && !o.Time.Before(newest) {
			continue
		}
		out = append(out, StaleEvidence{Criterion: v, Outcome: o, SourceTime: newest, SourcePath: newestPath})
	}
	return out
}
