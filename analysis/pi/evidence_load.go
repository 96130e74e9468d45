package pi

import (
	"context"
	"crypto/sha256"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Evidence is a charter directory's work/<segment>/evidence/<stamp>/
// evidence.json runs, read and reduced once: what a change of the work/
// folder invalidates, and nothing else does. A keystroke in criteria.md
// reuses it whole, so a charter with a hundred thousand runs costs nothing
// per keystroke once loaded.
type Evidence struct {
	Runs []*EvidenceRun // sorted by segment, then stamp
	// Newest is each VAL's newest schema-valid row (by time; a row whose
	// time does not parse counts as oldest): the evidence side of
	// LatestOutcomes.
	Newest map[string]Result
	// NewestTimed is each VAL's newest row with a parsable time, valid or
	// not: what criterion-state.json is compared with.
	NewestTimed map[string]Result
	// Errors are read failures and refused symlinks under work/.
	Errors []error

	byPath map[string]*EvidenceRun // Runs by their file's path (Dir.File)
}

// LoadEvidence reads every run of the charter directory dir. It stops early,
// returning ctx's error, when ctx is done.
// Like LoadDir, it reads nothing outside dir.
func LoadEvidence(ctx context.Context, fsys vfs.FS, dir string) (*Evidence, error) {
	return ReloadEvidence(ctx, fsys, dir, nil)
}

// ReloadEvidence is LoadEvidence after a change of the work/ folder: the
// runs of prev, the evidence loaded before, whose evidence.json holds the
// same bytes (the same SHA-256 digest) are kept as they are instead of
// parsed again, so a run added
// to a history of a hundred thousand costs one parse.
func ReloadEvidence(ctx context.Context, fsys vfs.FS, dir string, prev *Evidence) (*Evidence, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	l := newLoader(fsys, abs, LoadOptions{})
	ev := &Evidence{}
	if err := l.loadRuns(ctx, ev, prev); err != nil {
		return nil, err
	}
	ev.Errors = l.errors
	if err := ev.reduce(ctx); err != nil {
		return nil, err
	}
	return ev, nil
}

// reduce computes Newest and NewestTimed from the runs; it stops with
// ctx's error when ctx is done.
func (ev *Evidence) reduce(ctx context.Context) error {
	ev.Newest = map[string]Result{}
	ev.NewestTimed = map[string]Result{}
	ev.byPath = make(map[string]*EvidenceRun, len(ev.Runs))
	for n, r := range ev.Runs {
		if n%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ev.byPath[r.Path] = r
		for i := range r.Rows {
			row := &r.Rows[i]
			if row.CriterionID == "" {
				continue
			}
			o := Result{CriterionID: row.CriterionID, Outcome: row.Outcome, TS: row.TS, Summary: row.Summary,
				Source: row.Source, RecordedBy: row.RecordedBy, Because: row.Because, FeatureID: row.FeatureID,
				Origin: FromEvidence, File: r.Path, Span: row.Span, EvidencePath: r.RelPath}
			o.Time, o.TimeOK = row.Time()
			if o.TimeOK {
				if cur, seen := ev.NewestTimed[o.CriterionID]; !seen || o.Time.After(cur.Time) {
					ev.NewestTimed[o.CriterionID] = o
				}
			}
			// Rows that break the schema are not outcomes: an "outcome":
			// "ok" must not count as a pass (they are evidence-invalid).
			if len(row.SchemaProblems()) > 0 {
				continue
			}
			if cur, seen := ev.Newest[o.CriterionID]; !seen || newer(o, cur) {
				ev.Newest[o.CriterionID] = o
			}
		}
	}
	return nil
}

// Loaded reports whether the evidence.json at path (absolute, clean) was
// read and parsed as one of ev's runs: it is there, a regular file within
// the size limit, and readable.
func (ev *Evidence) Loaded(path string) bool {
	return ev != nil && ev.byPath[path] != nil
}

// sameRun returns ev's run of the evidence.json at path when its content
// had the same digest; nil otherwise (or when ev is nil).
func (ev *Evidence) sameRun(path string, digest [sha256.Size]byte) *EvidenceRun {
	if ev == nil || ev.byPath == nil {
		return nil
	}
	if old := ev.byPath[path]; old != nil && old.digest == digest {
		return old
	}
	return nil
}
