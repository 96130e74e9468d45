package pi

import (
	"maps"
	"path/filepath"
	"time"
)

// StaleEvidence is a fresh-required VAL whose latest outcome is a pass that
// predates the newest source change (an unparsable time counts as stale, as
// upstream rules).
type StaleEvidence struct {
	Criterion *Criterion
	// Outcome is the latest pass, shared by the views that take the
	// verdict over (nextStale copies the list with each version's
	// criteria, not the results): not modified.
	Outcome    *Result
	SourceTime time.Time
	SourcePath string // the newest source file, when the clock knows it
	// Unread, for an unjudged pass, says why the clock could not read the
	// history (nil: a shallow clone's).
	Unread *Unreadable
}

// staleReading is what findStale asked the clock, if it did.
type staleReading struct {
	asked bool
	src   SourceChange
	have  bool
}

// findStale applies upstream's staleness rule to every fresh-required VAL:
// its latest pass is stale when it predates the newest source change. Two
// readings of git refine it: a pass whose evidence run was committed
// together with the change was recorded for that state (fresh); and when
// the change is dated by where a shallow clone's history ends, a pass
// older than that cannot be judged (unjudged: neither stale nor fresh),
// nor can any pass when the clock could not read the history. The clock
// is asked once, and only when some VAL could be stale; a project without
// source folders has nothing stale.
//
// It makes room for about hint stale VALs (as many as the view before had)
// and says what it asked the clock.
func findStale(d *Dir, latest map[string]Result, clock SourceClock, hint int) (stale, unjudged []StaleEvidence, r staleReading) {
	if d.Project == "" || d.Criteria == nil {
		return nil, nil, r
	}
	if hint > 0 {
		stale = make([]StaleEvidence, 0, hint+hint/8)
	}
	// Whether a run was committed with the change, by the run's path: many
	// VALs share a run, and the path is made absolute once.
	var with map[string]bool
	var src SourceChange
	// The judged passes' results (StaleEvidence.Outcome), made a chunk at
	// a time: a first open judges thousands.
	var results []Result
	chunk := max(hint+hint/8, 8)
	for _, v := range d.Criteria.Criteria {
		if !v.RequireFreshEvidence {
			continue
		}
		o, ok := latest[v.ID]
		if !ok || o.Outcome != Pass {
			continue
		}
		if !r.asked {
			src, r.have = clock.Newest(d.Project)
			r.src, r.asked = src, true
		}
		if !r.have {
			return nil, nil, r
		}
		if src.Unread == nil && (o.TimeOK && !o.Time.Before(src.Time) || committedWith(d, src, o, &with)) {
			continue
		}
		if len(results) == cap(results) {
			results = make([]Result, 0, chunk)
			chunk = min(2*chunk, 1024)
		}
		results = append(results, o)
		se := StaleEvidence{Criterion: v, Outcome: &results[len(results)-1], SourceTime: src.Time, SourcePath: src.Path, Unread: src.Unread}
		if (src.Shallow || src.Unread != nil) && o.TimeOK {
			unjudged = append(unjudged, se)
		} else {
			stale = append(stale, se)
		}
	}
	if len(stale) == 0 {
		stale = nil // as without the room made
	}
	return stale, unjudged, r
}

// nextStale is findStale for the view after prev, whose latest results
// are prev's (the same evidence and criterion-state.json): when the
// register has prev's ids and fresh-evidence flags in the same order and
// the clock says what it said to prev (or prev had no pass to date), each
// VAL's verdict is prev's, and prev's lists are taken over with this
// register's criteria in them instead of each VAL's latest result looked
// up again (a keystroke anywhere but in an id or that flag). ok is false
// when they cannot be.
func nextStale(prev *View, d *Dir, clock SourceClock) (stale, unjudged []StaleEvidence, r staleReading, ok bool) {
	if d.Project == "" || d.Criteria == nil || prev.Dir.Criteria == nil || prev.Dir.Project != d.Project {
		return nil, nil, r, false
	}
	old, cur := prev.Dir.Criteria.Criteria, d.Criteria.Criteria
	// A criterion the parse took over from the version before (a block
	// before the edit) is the same one, and one placed anew shares its
	// block's parse (a block after it): their ids and flags are not read,
	// and where both versions place a block's criteria at the same index,
	// they are passed by the block (Criteria.runs), not one by one.
	same := true
	if !walkCriteria(prev.Dir.Criteria, d.Criteria, func(i, _ int) bool {
		// The same parsed criteria: their ids and flags are. One
		// placement gives a block's criteria: the first says whether all
		// are the same.
		same = same && old[i] == cur[i]
		return true
	}, func(i int) bool {
		if old[i] == cur[i] {
			return true
		}
		same = false
		return old[i].parsedCriterion == cur[i].parsedCriterion ||
			old[i].ID == cur[i].ID && old[i].RequireFreshEvidence == cur[i].RequireFreshEvidence
	}) {
		return nil, nil, r, false
	}
	r = prev.staleRead
	if !r.asked {
		return nil, nil, r, true // no pass to date then, nor now
	}
	src, have := clock.Newest(d.Project)
	if have != r.have || !sameSourceChange(src, r.src) {
		return nil, nil, r, false
	}
	if same {
		return prev.Stale, prev.Unjudged, r, true // the lists are never modified
	}
	if len(prev.Stale) > 0 {
		stale = make([]StaleEvidence, 0, len(prev.Stale))
	}
	j, k := 0, 0
	for i, c := range old {
		switch {
		case j < len(prev.Stale) && prev.Stale[j].Criterion == c:
			se := prev.Stale[j]
			se.Criterion = cur[i]
			stale, j = append(stale, se), j+1
		case k < len(prev.Unjudged) && prev.Unjudged[k].Criterion == c:
			se := prev.Unjudged[k]
			se.Criterion = cur[i]
			unjudged, k = append(unjudged, se), k+1
		}
	}
	return stale, unjudged, r, true
}

// sameSourceChange reports whether a and b are the same answer of a clock.
func sameSourceChange(a, b SourceChange) bool {
	return a.Time == b.Time && a.Path == b.Path && a.Shallow == b.Shallow && a.Unread == b.Unread && maps.Equal(a.With, b.With)
}

// committedWith reports whether o's evidence run was committed together
// with the source change src, remembering the answer per run in *seen.
func committedWith(d *Dir, src SourceChange, o Result, seen *map[string]bool) bool {
	if len(src.With) == 0 {
		return false
	}
	if *seen == nil {
		*seen = map[string]bool{}
	}
	with, ok := (*seen)[o.EvidencePath]
	if !ok {
		with = src.With[evidenceFile(d, o)]
		(*seen)[o.EvidencePath] = with
	}
	return with
}

// evidenceFile is the absolute path of a result's evidence run.
func evidenceFile(d *Dir, o Result) string {
	p := filepath.Join(d.Path, filepath.FromSlash(o.EvidencePath))
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
