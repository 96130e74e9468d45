package pi

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"slices"
	"sort"
	"strings"

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
	return ReloadEvidenceProgress(ctx, fsys, dir, prev, nil)
}

// ReloadEvidenceProgress is ReloadEvidence telling progress, when set, how
// many runs are loaded of how many, now and then (from the loading
// goroutines: it must be safe for concurrent use).
func ReloadEvidenceProgress(ctx context.Context, fsys vfs.FS, dir string, prev *Evidence, progress func(done, total int)) (*Evidence, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	l := newLoader(fsys, abs, LoadOptions{})
	l.progress = progress
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

// LoadRuns reads only the runs of the charter directory dir that rels name
// (relative to it: work/<segment>/evidence/<stamp>/evidence.json, as
// criterion-state.json names each VAL's latest run), as LoadEvidence reads
// each of them: the evidence a first look at a long history needs, before
// the rest is read. A name of another shape, a run that is not there or
// lies behind a link out of dir, is left out.
func LoadRuns(ctx context.Context, fsys vfs.FS, dir string, rels []string) (*Evidence, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	l := newLoader(fsys, abs, LoadOptions{})
	ev := &Evidence{}
	work := filepath.Join(abs, "work")
	if !l.allowed(abs, "work") {
		return ev, ev.reduce(ctx)
	}
	var jobs []runJob
	seen := map[string]bool{}
	rels = slices.Clone(rels)
	slices.Sort(rels) // a segment's runs together: its folder's listing is looked up once
	for _, rel := range rels {
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) != 5 || parts[0] != "work" || parts[2] != "evidence" || parts[4] != "evidence.json" ||
			!plainName(parts[1]) || !plainName(parts[3]) || seen[parts[1]+"/"+parts[3]] {
			continue
		}
		seen[parts[1]+"/"+parts[3]] = true
		seg, stamp := parts[1], parts[3]
		segDir := filepath.Join(work, seg)
		evDir := filepath.Join(segDir, "evidence")
		// The folders on the way as the full load takes them: folders, or
		// links that stay inside the charter directory.
		if !l.subdir(work, seg) || !l.allowed(segDir, "evidence") || !l.subdir(evDir, stamp) {
			continue
		}
		jobs = append(jobs, runJob{seg: l.intern.str(seg), stamp: stamp})
	}
	sort.Slice(jobs, func(i, j int) bool {
		if jobs[i].seg != jobs[j].seg {
			return jobs[i].seg < jobs[j].seg
		}
		return jobs[i].stamp < jobs[j].stamp
	})
	for i := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if run := l.loadRun(jobs[i].seg, jobs[i].stamp, nil, &l.intern, &l.errors); run != nil {
			ev.Runs = append(ev.Runs, run)
		}
	}
	ev.Errors = l.errors
	if err := ev.reduce(ctx); err != nil {
		return nil, err
	}
	return ev, nil
}

// plainName reports whether name is one folder's name (not empty, ".",
// ".." or a path).
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\")
}

// reduce computes Newest and NewestTimed from the runs; it stops with
// ctx's error when ctx is done.
func (ev *Evidence) reduce(ctx context.Context) error {
	ev.Newest = map[string]Result{}
	ev.NewestTimed = map[string]Result{}
	for n, r := range ev.Runs {
		if n%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
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
	return ev.run(path) != nil
}

// sameRun returns ev's run of the evidence.json at path when its content
// had the same digest; nil otherwise (or when ev is nil).
func (ev *Evidence) sameRun(path string, digest [sha256.Size]byte) *EvidenceRun {
	if old := ev.run(path); old != nil && old.digest == digest {
		return old
	}
	return nil
}

// run is ev's run whose evidence.json is at path (absolute, clean), or nil
// (also when ev is nil). It is asked once per file checked, and of every
// run a reload reads: the runs are sorted by segment, then stamp, and path
// names both, so it is a binary search, not an index of a hundred thousand
// paths.
func (ev *Evidence) run(path string) *EvidenceRun {
	if ev == nil {
		return nil
	}
	seg, stamp, ok := runNames(path, string(filepath.Separator))
	if !ok {
		return nil
	}
	if r := ev.find(seg, stamp); r != nil && r.Path == path {
		return r
	}
	return nil
}

// runAt is ev's run whose RelPath is rel (slash-separated, clean), or nil.
func (ev *Evidence) runAt(rel string) *EvidenceRun {
	seg, stamp, ok := runNames(rel, "/")
	if !ok {
		return nil
	}
	if r := ev.find(seg, stamp); r != nil && r.RelPath == rel {
		return r
	}
	return nil
}

// find is ev's run of the segment and stamp, or nil: a binary search of the
// runs, sorted by segment, then stamp.
func (ev *Evidence) find(seg, stamp string) *EvidenceRun {
	i, found := slices.BinarySearchFunc(ev.Runs, seg, func(r *EvidenceRun, seg string) int {
		if c := strings.Compare(r.Segment, seg); c != 0 {
			return c
		}
		return strings.Compare(r.Stamp, stamp)
	})
	if found {
		return ev.Runs[i]
	}
	return nil
}

// runNames are the segment and stamp of a run's path, with sep between
// its names: [… sep] work/<segment>/evidence/<stamp>/evidence.json (a
// file's path, or its RelPath with sep "/"); ok is false for a path of
// another shape.
func runNames(path, sep string) (seg, stamp string, ok bool) {
	rest, found := strings.CutSuffix(path, sep+"evidence.json")
	if !found {
		return "", "", false
	}
	i := strings.LastIndex(rest, sep)
	if i < 0 {
		return "", "", false
	}
	rest, stamp = rest[:i], rest[i+1:]
	if rest, found = strings.CutSuffix(rest, sep+"evidence"); !found {
		return "", "", false
	}
	i = strings.LastIndex(rest, sep)
	if i < 0 {
		return "", "", false
	}
	rest, seg = rest[:i], rest[i+1:]
	if rest != "work" && !strings.HasSuffix(rest, sep+"work") {
		return "", "", false
	}
	return seg, stamp, true
}
