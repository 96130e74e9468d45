package pi

import (
	"context"
	"path/filepath"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Options configure Check.
type Options struct {
	// SourceDirs are the folders, relative to the project, whose changes
	// make fresh-required evidence stale (default ["src"]).
	SourceDirs []string
	// Freshness says how the newest source change is dated (unset: the
	// default).
	Freshness Freshness
	// Now is the current time, for ages in messages (default time.Now).
	Now time.Time
	// Clock overrides the clock built from Freshness and SourceDirs (the
	// workspace passes the reading it memoizes per snapshot).
	Clock SourceClock
	// FS is read by the mtime clock (default vfs.OS).
	FS vfs.FS
	// Stale, when not nil, is the staleness already computed for d (by
	// the charter's view), and Unjudged the passes whose freshness a
	// shallow clone cannot tell: the clock is then not asked.
	Stale    []StaleEvidence
	Unjudged []StaleEvidence
	// Only, when set, limits the check to the diagnostics of that file (an
	// absolute path of d): a keystroke in criteria.md need not re-check a
	// hundred thousand evidence rows.
	Only string
}

// Check returns the diagnostics of a charter directory, keyed by the
// absolute path of the file each belongs to, with ranges located. When ctx
// is done it stops within a few criteria or runs and returns what it has,
// which is then incomplete: the caller tells by ctx.Err() and drops it.
func Check(ctx context.Context, d *Dir, opts Options) map[string][]diag.Diagnostic {
	c := &checker{ctx: ctx, d: d, opts: opts, out: map[string][]diag.Diagnostic{}}
	if c.opts.Now.IsZero() {
		c.opts.Now = time.Now()
	}
	if c.opts.Clock == nil && c.opts.Stale == nil {
		c.opts.Clock = NewSourceClock(opts.Freshness, opts.FS, opts.SourceDirs)
	}
	if c.opts.Clock != nil {
		c.opts.Clock = clockUnder{ctx, c.opts.Clock}
	}
	if c.wants(d.CharterFile) {
		c.checkCharter()
	}
	if d.CriteriaPath != "" && c.wants(d.File(d.CriteriaPath)) {
		c.checkCriteria()
		c.checkStale()
	}
	if c.opts.Only == "" || c.wants(d.StateFile) || c.wants(d.CriterionStateFile) || filepath.Base(c.opts.Only) == "evidence.json" {
		c.checkEvidence()
		if c.opts.Only == "" || c.wants(d.CriterionStateFile) {
			c.checkCriterionState() // its findings are all on criterion-state.json
		}
	}
	if c.wants(d.ReportFile) {
		c.checkReport()
	}
	for path := range c.out {
		c.out[path] = append(c.out[path], c.limit.Notes(path)...)
	}
	for path, ds := range c.out {
		if c.stopped(0) {
			break
		}
		f := d.File(path)
		if f == nil && d.run(path) != nil {
			// The run changed since it was loaded: its spans no longer
			// say where. The next load (a change of work/) reads it again.
			delete(c.out, path)
			continue
		}
		if f != nil {
			diag.Locate(ds, path, f.Index)
			files := map[string]*File{path: f}
			for i := range ds {
				rel := ds[i].Related[:0]
				for _, r := range ds[i].Related {
					rf, seen := files[r.File]
					if !seen {
						rf = d.File(r.File)
						files[r.File] = rf
					}
					if rf == nil && d.run(r.File) != nil {
						continue // changed since loaded, as above
					}
					if rf != nil {
						r.Range = rf.Index.Range(r.Span)
					}
					rel = append(rel, r)
				}
				ds[i].Related = rel
			}
		}
		diag.Sort(ds)
	}
	return c.out
}

type checker struct {
	ctx   context.Context
	d     *Dir
	opts  Options
	out   map[string][]diag.Diagnostic
	known map[string]bool // knownIDs, once computed
	// limit keeps at most diag.MaxPerCode diagnostics of a code in a file:
	// a ## Commands section of 250,000 "x" lines would make as many.
	limit diag.Limiter
}

// clockUnder reads a clock under ctx: a walk of the sources stops with the
// check (and then finds nothing).
type clockUnder struct {
	ctx context.Context
	SourceClock
}

func (c clockUnder) Newest(project string) (SourceChange, bool) {
	ch, ok, _ := NewestSource(c.ctx, c.SourceClock, project)
	return ch, ok
}

// stopped reports, every 32nd i, whether the check's context is done: the
// loops over criteria and runs call it so that a cancelled check stops.
func (c *checker) stopped(i int) bool {
	return i%32 == 0 && c.ctx.Err() != nil
}

// wants reports whether f's diagnostics are asked for.
func (c *checker) wants(f *File) bool {
	return f != nil && (c.opts.Only == "" || c.opts.Only == f.Path)
}

func (c *checker) add(file string, dg diag.Diagnostic) {
	if c.opts.Only != "" && file != c.opts.Only || !c.limit.Keep(file, dg.Code, dg.Span) {
		return
	}
	c.out[file] = append(c.out[file], dg)
}

// related builds a Related location; its Range is filled after all checks.
func related(file string, span source.Span, msg string) diag.Related {
	return diag.Related{File: file, Span: span, Message: msg}
}
