package status

import (
	"context"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// View is one pi charter directory as every feature sees it: the register,
// each VAL's latest result, the stale ones and milestone progress, with the
// full status (drift, blockers, next actions) on demand. The status command,
// the checks, hover, code lens and symbols all read the same View, so a rule
// such as "a milestone's progress counts its VALs whose latest outcome is
// pass" is written once, here. A View is immutable once built; the server
// builds one per change of the charter's files (workspace.Snapshot).
type View struct {
	Dir *pi.Dir
	// Latest is each VAL's newest record (criterion-state.json or an
	// evidence row), by id; ids the register lacks are included.
	Latest map[string]pi.Result
	// Stale lists the fresh-required VALs whose pass predates the newest
	// source change, in register order; StaleByID indexes it.
	Stale     []pi.StaleEvidence
	StaleByID map[string]pi.StaleEvidence
	// Unjudged lists the fresh-required VALs whose pass a shallow clone
	// cannot judge (pi.FindStale): neither stale nor fresh.
	Unjudged []pi.StaleEvidence

	fsys vfs.FS // for the few facts status reads besides the files (folder existence)

	statusMu sync.Mutex
	status   *Status
	statusAt time.Time
}

// NewView derives the view of a loaded charter directory. clock dates the
// newest source change; it is asked at most once, and only when some VAL
// requires fresh evidence and passes.
func NewView(fsys vfs.FS, d *pi.Dir, clock pi.SourceClock) *View {
	v := &View{Dir: d, Latest: pi.LatestResults(d), StaleByID: map[string]pi.StaleEvidence{}, fsys: fsys}
	v.Stale, v.Unjudged = pi.FindStale(d, v.Latest, clock)
	if v.Stale == nil {
		v.Stale = []pi.StaleEvidence{} // computed: none (nil would mean "not computed" to pi.Check)
	}
	for _, se := range v.Stale {
		v.StaleByID[se.Criterion.ID] = se
	}
	return v
}

// Passes reports whether the VAL's latest outcome is pass.
func (v *View) Passes(id string) bool { return v.Latest[id].Outcome == pi.Pass }

// Progress counts a milestone's VALs whose latest outcome is pass, the rule
// behind valPassCount, the code lens ("3/5 pass"), hover and the outline.
func (v *View) Progress(m *pi.Milestone) (pass, total int) { return v.count(m.CriterionIDs()) }

// count counts the ids (a repeated id as often as it appears) whose latest
// outcome is pass.
func (v *View) count(ids []string) (pass, total int) {
	for _, id := range ids {
		if v.Passes(id) {
			pass++
		}
	}
	return pass, len(ids)
}

// Criterion returns the VAL id of the effective register, or nil.
func (v *View) Criterion(id string) *pi.Criterion {
	if v.Dir.Criteria == nil {
		return nil
	}
	return v.Dir.Criteria.Lookup(id)
}

// MilestoneOf returns the milestone holding the VAL id, or nil.
func (v *View) MilestoneOf(id string) *pi.Milestone {
	if v.Dir.Criteria == nil {
		return nil
	}
	for _, m := range v.Dir.Criteria.Milestones {
		for _, c := range m.Criteria {
			if c.ID == id {
				return m
			}
		}
	}
	return nil
}

// Status is the charter's full status as of now. The last one is kept and
// returned again for the same now, so features asking within one request
// share it.
func (v *View) Status(now time.Time) *Status {
	v.statusMu.Lock()
	defer v.statusMu.Unlock()
	if v.status == nil || !v.statusAt.Equal(now) {
		c := &computer{view: v, d: v.Dir, now: now}
		v.status, v.statusAt = c.run(), now
	}
	return v.status
}

// Diagnostics returns the check's diagnostics of path, one file of the
// charter directory v describes, unlocated (byte spans in that file). When
// ctx is done the check stops early and the result is incomplete (see
// pi.Check).
func (v *View) Diagnostics(ctx context.Context, path string, now time.Time) []diag.Diagnostic {
	return pi.Check(ctx, v.Dir, pi.Options{Stale: v.Stale, Unjudged: v.Unjudged, Only: path, Now: now})[path]
}
