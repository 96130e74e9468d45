package pi

import (
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
	// Freshness is "mtime" (default, upstream's rule) or "git".
	Freshness string
	// Now is the current time, for ages in messages (default time.Now).
	Now time.Time
	// Clock overrides the clock built from Freshness and SourceDirs; the
	// server passes a CachingClock.
	Clock SourceClock
	// FS is read by the mtime clock (default vfs.OS).
	FS vfs.FS
}

// Check returns the diagnostics of a charter directory, keyed by the
// absolute path of the file each belongs to, with ranges located.
func Check(d *Dir, opts Options) map[string][]diag.Diagnostic {
	c := &checker{d: d, opts: opts, out: map[string][]diag.Diagnostic{}}
	if c.opts.Now.IsZero() {
		c.opts.Now = time.Now()
	}
	if c.opts.Clock == nil {
		c.opts.Clock = NewSourceClock(opts.Freshness, opts.FS, opts.SourceDirs)
	}
	c.checkCharter()
	c.checkCriteria()
	c.checkEvidence()
	c.checkCriterionState()
	c.checkStale()
	c.checkReport()
	for path, ds := range c.out {
		if f := d.File(path); f != nil {
			diag.Locate(ds, path, f.Index)
			for i := range ds {
				for j := range ds[i].Related {
					r := &ds[i].Related[j]
					if rf := d.File(r.File); rf != nil {
						r.Range = rf.Index.Range(r.Span)
					}
				}
			}
		}
		diag.Sort(ds)
	}
	return c.out
}

type checker struct {
	d     *Dir
	opts  Options
	out   map[string][]diag.Diagnostic
	known map[string]bool // knownIDs, once computed
}

func (c *checker) add(file string, dg diag.Diagnostic) {
	c.out[file] = append(c.out[file], dg)
}

// related builds a Related location; its Range is filled after all checks.
func related(file string, span source.Span, msg string) diag.Related {
	return diag.Related{File: file, Span: span, Message: msg}
}
