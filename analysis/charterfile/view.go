package charterfile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// View is one .charters/<id> folder as every feature sees it: the folder
// read once (charter.md in the generation Decide picks, state.json,
// events.jsonl), which passes are stale, how often the journal records
// each criterion failing, and the folder's diagnostics on demand. The
// check, the status report (package status), hover, code lens, symbols,
// completion, definition and the actions all read the same View; the
// workspace builds one per change of the folder and memoizes it on the
// snapshot (workspace.Snapshot.ChartersView). A View is immutable once
// built.
type View struct {
	*Dir
	// Stale says, per criterion id, whether its pass is stale (upstream's
	// criterionStaleness after its status view's snapshot refresh).
	Stale map[string]bool
	// FailCounts counts, per criterion id, the journal's turns to fail.
	FailCounts map[string]int
	// ReportExists: the folder holds a REPORT.md.
	ReportExists bool

	// checking holds the one check of the folder in flight; checked is
	// its result, kept once a check ran to its end.
	checking chan struct{}
	checked  map[string][]diag.Diagnostic
}

// NewView reads the charter folder dir through fsys (LoadDir) and derives
// what its features share.
func NewView(fsys vfs.FS, dir string) *View {
	v, _ := NewViewContext(context.Background(), fsys, dir)
	return v
}

// NewViewContext is NewView that stops, returning ctx's error, when ctx is
// done before charter.md is parsed (LoadDirContext).
func NewViewContext(ctx context.Context, fsys vfs.FS, dir string) (*View, error) {
	d, err := LoadDirContext(ctx, fsys, dir)
	if err != nil {
		return nil, err
	}
	v := &View{Dir: d, Stale: staleCriteria(d), FailCounts: map[string]int{}, checking: make(chan struct{}, 1)}
	if d.Events != nil {
		v.FailCounts = d.Events.FailCounts()
	}
	if _, err := fsys.Stat(vfs.Join(d.Path, "REPORT.md")); err == nil {
		v.ReportExists = true
	}
	return v, nil
}

// Loaded reports why the view holds no charter status can be given for:
// the folder holds none of charter.md, state.json and events.jsonl.
func (v *View) Loaded() error {
	if v.CharterSrc == nil && v.StateSrc == nil && v.EventsSrc == nil {
		return errors.New(v.Path + " holds none of charter.md, state.json, events.jsonl: not a charter")
	}
	return nil
}

// Diagnostics are the folder's diagnostics by file (Check), computed once
// for the view. Callers must not modify them.
func (v *View) Diagnostics() map[string][]diag.Diagnostic {
	byFile, _ := v.DiagnosticsContext(context.Background())
	return byFile
}

// DiagnosticsContext is Diagnostics under ctx: a check stops when ctx is
// done (CheckContext), keeps nothing, and the next caller starts it again;
// so a newer version of the folder stops the check of the one before it.
func (v *View) DiagnosticsContext(ctx context.Context) (map[string][]diag.Diagnostic, error) {
	select {
	case v.checking <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-v.checking }()
	if v.checked == nil {
		byFile, err := CheckContext(ctx, v.Dir)
		if err != nil {
			return nil, err
		}
		v.checked = byFile
	}
	return v.checked, nil
}

// Ready lists the criteria to work on next, in file order: those that do
// not pass and wait on no criterion (Waiting), as upstream's
// readyCriteria has it.
func (c *Charter) Ready() []*Criterion {
	var out []*Criterion
	for _, cr := range c.Criteria {
		if cr.Status != StatusPass && len(c.Waiting(cr)) == 0 {
			out = append(out, cr)
		}
	}
	return out
}

// staleCriteria is upstream's criterionStaleness after the snapshot
// refresh its status view runs first (application/staleness.ts@11ebdca7):
// a passing criterion is stale when its status was last changed before the
// latest recorded source change. When charter.md differs from the
// snapshot, a criterion whose status or note changed is dated now (fresh).
func staleCriteria(d *Dir) map[string]bool {
	out := map[string]bool{}
	st := d.State
	if st == nil || !st.Valid || d.Charter == nil {
		return out
	}
	snap := map[string]Snapshot{}
	for _, s := range st.CriteriaSnapshot {
		snap[s.ID] = s
	}
	sum := sha256.Sum256(d.CharterSrc)
	changed := hex.EncodeToString(sum[:]) != st.SnapshotHash
	for _, cr := range d.Charter.Criteria {
		status := cr.Status.Current()
		old, ok := snap[cr.ID]
		seq := old.Seq
		if changed && (!ok || old.Status != status || old.Note != cr.Note) {
			seq = st.NextSeq // a new sequence number: later than any recorded source change
		} else if !ok {
			continue
		}
		out[cr.ID] = status == StatusPass && seq < st.LatestSourceSeq
	}
	return out
}
