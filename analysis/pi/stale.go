package pi

import (
	"path/filepath"
	"time"
)

// StaleEvidence is a fresh-required VAL whose latest outcome is a pass that
// predates the newest source change (an unparsable time counts as stale, as
// upstream rules).
type StaleEvidence struct {
	Criterion  *Criterion
	Outcome    Result
	SourceTime time.Time
	SourcePath string // the newest source file, when the clock knows it
	// Unread, for an unjudged pass, says why the clock could not read the
	// history (nil: a shallow clone's).
	Unread *Unreadable
}

// FindStale applies upstream's staleness rule to every fresh-required VAL:
// its latest pass is stale when it predates the newest source change. Two
// readings of git refine it: a pass whose evidence run was committed
// together with the change was recorded for that state (fresh); and when
// the change is dated by where a shallow clone's history ends, a pass
// older than that cannot be judged (unjudged: neither stale nor fresh),
// nor can any pass when the clock could not read the history. The clock
// is asked once, and only when some VAL could be stale; a project without
// source folders has nothing stale.
func FindStale(d *Dir, latest map[string]Result, clock SourceClock) (stale, unjudged []StaleEvidence) {
	return findStale(d, latest, clock, 0)
}

// findStale is FindStale with room made for about hint stale VALs (as many
// as the view before had).
func findStale(d *Dir, latest map[string]Result, clock SourceClock, hint int) (stale, unjudged []StaleEvidence) {
	if d.Project == "" || d.Criteria == nil {
		return nil, nil
	}
	if hint > 0 {
		stale = make([]StaleEvidence, 0, hint+hint/8)
	}
	var src SourceChange
	var have, asked bool
	// Whether a run was committed with the change, by the run's path: many
	// VALs share a run, and the path is made absolute once.
	var with map[string]bool
	for _, v := range d.Criteria.Criteria {
		if !v.RequireFreshEvidence {
			continue
		}
		o, ok := latest[v.ID]
		if !ok || o.Outcome != Pass {
			continue
		}
		if !asked {
			src, have = clock.Newest(d.Project)
			asked = true
		}
		if !have {
			return nil, nil
		}
		if src.Unread == nil && (o.TimeOK && !o.Time.Before(src.Time) || committedWith(d, src, o, &with)) {
			continue
		}
		se := StaleEvidence{Criterion: v, Outcome: o, SourceTime: src.Time, SourcePath: src.Path, Unread: src.Unread}
		if (src.Shallow || src.Unread != nil) && o.TimeOK {
			unjudged = append(unjudged, se)
		} else {
			stale = append(stale, se)
		}
	}
	if len(stale) == 0 {
		stale = nil // as without the room made
	}
	return stale, unjudged
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
