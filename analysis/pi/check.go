package pi

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Options configure Check.
type Options struct {
	// Now is the current time, for ages in messages (default time.Now).
	Now time.Time
	// Only, when set, limits the check to the diagnostics of that file (an
	// absolute path of the directory): a keystroke in criteria.md need not
	// re-check a hundred thousand evidence rows.
	Only string
}

// Check returns the diagnostics of the charter directory v views, keyed by
// the absolute path of the file each belongs to, with ranges located.
// Staleness is the view's (View.Stale, View.Unjudged: the one reading of
// it). When ctx is done it stops within a few criteria or runs and returns
// what it has, which is then incomplete: the caller tells by ctx.Err() and
// drops it.
func Check(ctx context.Context, v *View, opts Options) map[string][]diag.Diagnostic {
	d := v.Dir
	c := &checker{ctx: ctx, v: v, d: d, opts: opts, out: map[string][]diag.Diagnostic{}}
	if c.opts.Now.IsZero() {
		c.opts.Now = time.Now()
	}
	if c.wants(d.CharterFile) {
		c.checkCharter()
	}
	if d.CriteriaPath != "" && c.wants(d.File(d.CriteriaPath)) {
		c.checkCriteria() // and the stale VALs' (checkStale)
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
	c.flush()
	for path, ds := range c.out {
		if c.stopped(0) {
			break
		}
		notes := c.limit.Notes(path)
		f := d.File(path)
		if f == nil && d.run(path) != nil {
			// The run changed since it was loaded: its spans no longer
			// say where. The next load (a change of work/) reads it again.
			delete(c.out, path)
			continue
		}
		if f != nil {
			diag.LocateRest(ds, path, f.Index) // a VAL's own come located
			diag.Locate(notes, path, f.Index)
		}
		for _, note := range notes {
			ds = diag.InsertSorted(ds, note) // in order: the sort below has nothing to do
		}
		c.out[path] = ds
		if f != nil {
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
	ctx  context.Context
	v    *View
	d    *Dir
	opts Options
	out  map[string][]diag.Diagnostic
	// lastFile's findings are appended to lastOut, put in out when another
	// file's come (flush): a register's thousands are not each a map
	// assignment.
	lastFile string
	lastOut  []diag.Diagnostic
	// limit keeps at most diag.MaxPerCode diagnostics of a code in a file:
	// a ## Commands section of 250,000 "x" lines would make as many.
	limit diag.Limiter
	// gathering is set while the criteria file's findings that are not a
	// VAL's own are gathered (in gathered), to be merged with the VALs'
	// in the order of the file (checkCriteria).
	gathering bool
	gathered  []diag.Diagnostic
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
	if c.keep(file, dg.Code, dg.Span) {
		c.put(file, dg)
	}
}

// keep reports whether a finding of code at span in file is asked for and
// within the limit (counting it): one past it need not be made.
func (c *checker) keep(file string, code diag.Code, span source.Span) bool {
	return (c.opts.Only == "" || file == c.opts.Only) && c.limit.Keep(file, code, span)
}

// put appends dg, kept, to file's findings (to those gathered, while
// gathering).
func (c *checker) put(file string, dg diag.Diagnostic) {
	if c.gathering {
		c.gathered = append(c.gathered, dg)
		return
	}
	if file != c.lastFile {
		c.flush()
		c.lastFile, c.lastOut = file, c.out[file]
	}
	c.lastOut = append(c.lastOut, dg)
}

// flush puts the findings of the file added to last in out.
func (c *checker) flush() {
	if c.lastFile != "" {
		c.out[c.lastFile] = c.lastOut
	}
}

// grow makes room for n more findings of file.
func (c *checker) grow(file string, n int) {
	c.flush()
	c.lastFile, c.lastOut = file, slices.Grow(c.out[file], n)
}

// related builds a Related location; its Range is filled after all checks.
func related(file string, span source.Span, msg string) diag.Related {
	return diag.Related{File: file, Span: span, Message: msg}
}
