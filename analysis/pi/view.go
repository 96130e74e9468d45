package pi

import (
	"context"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// View is one pi charter directory as every feature sees it: the register,
// each VAL's latest result, the stale ones and milestone progress. The
// checks, hover, code lens, symbols, completion, definition, workspace
// symbols and the status report (package status) all read the same View,
// so a rule such as "a milestone's progress counts its VALs whose latest
// outcome is pass" is written once, here. A View is immutable once built;
// the workspace builds one per change of the charter's files and memoizes
// it on the snapshot (workspace.Snapshot.PiView).
type View struct {
	Dir *Dir
	// Latest is each VAL's newest record (criterion-state.json or an
	// evidence row), by id; ids the register lacks are included.
	Latest map[string]Result
	// Stale lists the fresh-required VALs whose pass predates the newest
	// source change, in register order; StaleOf looks one up. It is the
	// one reading of staleness: the check, hover, lens and status all take
	// it from here.
	Stale []StaleEvidence
	// Unjudged lists the fresh-required VALs whose pass a shallow clone
	// cannot judge (findStale): neither stale nor fresh.
	Unjudged []StaleEvidence

	fsys vfs.FS
	// staleRead is what the staleness pass asked the clock, for the next
	// view to take the verdicts over (nextStale).
	staleRead  staleReading
	staleIndex struct {
		once sync.Once
		at   map[*Criterion]int // index in Stale by VAL block
		ids  map[string]bool    // the ids with a stale block
	}
	carry *viewCarry
}

// viewCarry is what the successive views of one charter share while the
// files it was derived from are unchanged: a keystroke in criteria.md
// changes the register, not the evidence, so the latest results are not
// gathered again, nor the stale diagnostics' messages written again.
type viewCarry struct {
	evidence   *Evidence
	stateFile  *File // criterion-state.json as read; nil when there is none
	latest     map[string]Result
	mu         sync.Mutex
	staleNotes map[string]staleNote // by VAL id, the latest check's stale VALs (checkStale)
}

// staleNote is the message and data of a stale-evidence diagnostic, and
// the source time it was written for; the rest of what it says comes from
// the VAL's latest result, which is the same while the carry is.
type staleNote struct {
	sourceTime time.Time
	msg        string
	data       map[string]string
}

// carries reports whether c was derived from what d holds: the same
// evidence and criterion-state.json.
func (c *viewCarry) carries(d *Dir) bool {
	a, b := c.stateFile, d.CriterionStateFile
	return c.evidence == d.Evidence && (a == nil && b == nil || sameText(b, a))
}

// known reports whether id names a criterion of the effective register;
// every id is known when there is no register to compare with (no
// criteria.md and no legacy section).
func (v *View) known(id string) bool {
	return v.Dir.CriteriaPath == "" || v.Dir.Criteria.Lookup(id) != nil
}

// NewView derives the view of a loaded charter directory. clock dates the
// newest source change; it is asked at most once, and only when some VAL
// requires fresh evidence and passes.
func NewView(fsys vfs.FS, d *Dir, clock SourceClock) *View {
	return NextView(nil, fsys, d, clock)
}

// NextView is NewView for the next version of the charter prev views (nil
// for none): what prev derived from files that d holds unchanged (the
// latest results, the messages of stale diagnostics) is taken over, not
// derived again. The view is the one NewView gives
// (TestNextViewMatchesNewView).
func NextView(prev *View, fsys vfs.FS, d *Dir, clock SourceClock) *View {
	c := &viewCarry{evidence: d.Evidence, stateFile: d.CriterionStateFile}
	carried := prev != nil && prev.carry != nil && prev.carry.carries(d)
	hint := 0
	if carried {
		c, hint = prev.carry, len(prev.Stale)
	} else {
		c.latest = LatestResults(d)
	}
	v := &View{Dir: d, Latest: c.latest, fsys: fsys, carry: c}
	if carried {
		var ok bool
		if v.Stale, v.Unjudged, v.staleRead, ok = nextStale(prev, d, clock); ok {
			return v
		}
	}
	v.Stale, v.Unjudged, v.staleRead = findStale(d, v.Latest, clock, hint)
	return v
}

// StaleOf returns the VAL block's entry in Stale, if that block is stale.
// Staleness is a block's own (its fresh-evidence line), as upstream's drift
// judges each parsed criterion: where an id repeats, each block answers for
// itself, and a later block that needs fresh evidence does not make the
// first one stale.
func (v *View) StaleOf(c *Criterion) (StaleEvidence, bool) {
	v.indexStale()
	i, ok := v.staleIndex.at[c]
	if !ok {
		return StaleEvidence{}, false
	}
	return v.Stale[i], true
}

func (v *View) indexStale() {
	v.staleIndex.once.Do(func() {
		v.staleIndex.at = make(map[*Criterion]int, len(v.Stale))
		v.staleIndex.ids = make(map[string]bool, len(v.Stale))
		for i, se := range v.Stale {
			v.staleIndex.at[se.Criterion] = i
			v.staleIndex.ids[se.Criterion.ID] = true
		}
	})
}

// FS is the file system the view was read through, for the few facts a
// report reads besides the files (a folder's existence, a file's time).
func (v *View) FS() vfs.FS { return v.fsys }

// staleBlock reports whether the VAL block c is stale.
func (v *View) staleBlock(c *Criterion) bool {
	_, ok := v.StaleOf(c)
	return ok
}

// anyStale reports whether a block of the VAL id is stale.
func (v *View) anyStale(id string) bool {
	v.indexStale()
	return v.staleIndex.ids[id]
}

// Passes reports whether the VAL's latest outcome is pass.
func (v *View) Passes(id string) bool { return v.Latest[id].Outcome == Pass }

// Progress counts a milestone's VALs whose latest outcome is pass, the rule
// behind valPassCount, the code lens ("3/5 pass"), hover and the outline.
func (v *View) Progress(m *Milestone) (pass, total int) { return v.PassCount(m.CriterionIDs()) }

// PassCount counts the ids (a repeated id as often as it appears) whose
// latest outcome is pass.
func (v *View) PassCount(ids []string) (pass, total int) {
	for _, id := range ids {
		if v.Passes(id) {
			pass++
		}
	}
	return pass, len(ids)
}

// Criterion returns the VAL id of the effective register, or nil.
func (v *View) Criterion(id string) *Criterion {
	if v.Dir.Criteria == nil {
		return nil
	}
	return v.Dir.Criteria.Lookup(id)
}

// MilestoneOf returns the milestone holding the VAL id, or nil.
func (v *View) MilestoneOf(id string) *Milestone {
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

// Register is the VAL register held by the file at path itself:
// criteria.md as parsed, or charter.md's legacy ## Criteria section when
// that is the register in use; nil for any other file. Its spans are
// offsets into that file's text as the view read it.
func (v *View) Register(path string) *Criteria {
	d := v.Dir
	switch {
	case d.CriteriaFile != nil && d.CriteriaFile.Path == path:
		return d.CriteriaDoc
	case d.Legacy && d.CharterFile != nil && d.CharterFile.Path == path:
		return d.Criteria
	}
	return nil
}

// Diagnostics returns the check's diagnostics of path, one file of the
// charter directory v describes, unlocated (byte spans in that file). When
// ctx is done the check stops early and the result is incomplete (see
// Check).
func (v *View) Diagnostics(ctx context.Context, path string, now time.Time) []diag.Diagnostic {
	return Check(ctx, v, Options{Only: path, Now: now})[path]
}

// At returns the VAL whose heading or body holds offset off, or nil (also
// for a nil register).
func (cr *Criteria) At(off int) *Criterion {
	if cr == nil {
		return nil
	}
	for _, c := range cr.Criteria {
		if c.HeadingSpan().Start <= off && (off <= c.HeadingSpan().End || off <= c.BodySpan().End) {
			return c
		}
	}
	return nil
}

// HeadingAt returns the VAL whose heading line holds offset off, or nil.
func (cr *Criteria) HeadingAt(off int) *Criterion {
	if c := cr.At(off); c != nil && off <= c.HeadingSpan().End {
		return c
	}
	return nil
}
