package workspace

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// charter is what a snapshot knows of one pi charter directory. Its parts
// change at different rates: the evidence (work/) only when a run is added
// or edited, the view whenever any file of the folder, the project's sources
// or the settings change.
type charter struct {
	dir     string
	project string // the folder holding .pi/

	evidence *promise[*pi.Evidence]
	view     *promise[*pi.View]
	// prev is the view of the snapshot before, whose latest results the
	// next view takes over when the evidence is the same (pi.NextView);
	// dropped once the view is made.
	prev *promise[*pi.View]
	// stale is the evidence before a change of work/, whose unchanged runs
	// the next load takes over instead of parsing them again.
	stale *promise[*pi.Evidence]
	// symbols are the register's VALs as workspace symbols (symbols.go):
	// they change with charter.md and criteria.md only.
	symbols *promise[[]Symbol]
	// loaded and runs say how far the evidence's load is (preview.go);
	// partial is the evidence a preview reads, while the rest is read.
	loaded, runs atomic.Int64
	partial      *promise[*pi.Evidence]

	// mu guards checks, prev and the promises made on first use (evidence,
	// view, partial, symbols): an untouched charter is carried whole into
	// the next snapshot, so two snapshots may ask for the same one at once,
	// each under its own lock.
	mu     sync.Mutex
	checks map[string]*promise[[]diag.Diagnostic] // by file
}

// renew is the charter for the next snapshot: everything recomputed, except
// the evidence when keepEvidence (otherwise the evidence is loaded again,
// reusing the runs that did not change), the symbols when keepSymbols, and
// the runs a preview reads while the evidence loads when keepPartial.
func (c *charter) renew(keepEvidence, keepSymbols, keepPartial bool) *charter {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := &charter{dir: c.dir, project: c.project, prev: c.prev}
	if c.view != nil {
		if _, done := c.view.peek(); done {
			n.prev = c.view
		}
	}
	if keepSymbols {
		n.symbols = c.symbols
	}
	loaded := false
	if c.evidence != nil {
		_, loaded = c.evidence.peek()
	}
	switch {
	case keepEvidence:
		n.evidence = c.evidence
		if !loaded {
			n.stale = c.stale // to be loaded still, from the one before
			if keepPartial {
				n.partial = c.partial // and previewed meanwhile
			}
		}
	case loaded:
		n.stale = c.evidence
	default:
		n.stale = c.stale // never loaded: the one before, if any
	}
	return n
}

// charterFor returns the snapshot's charter for dir, creating its memo.
func (s *Snapshot) charterFor(dir string) *charter {
	dir = vfs.Clean(dir)
	s.mu.Lock()
	c := s.charters[dir]
	if c == nil {
		c = &charter{dir: dir, project: pi.ProjectOf(dir)}
		s.charters[dir] = c
	}
	s.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.evidence == nil {
		stale := c.stale
		c.evidence = newPromise(s.sess.busy, func(ctx context.Context) (*pi.Evidence, error) {
			var prev *pi.Evidence
			if stale != nil {
				prev, _ = stale.peek()
			}
			return pi.ReloadEvidenceProgress(ctx, s.FS(), dir, prev, func(done, total int) {
				c.loaded.Store(int64(done))
				c.runs.Store(int64(total))
			})
		})
	}
	if c.view == nil {
		c.view = newPromise(s.sess.busy, func(ctx context.Context) (*pi.View, error) {
			ev, err := c.evidence.get(ctx)
			if err != nil {
				return nil, err
			}
			c.mu.Lock()
			prev := c.prev
			c.mu.Unlock()
			var pv *pi.View
			if prev != nil {
				pv, _ = prev.peek()
			}
			v, err := s.newView(ctx, dir, ev, pv)
			if err == nil {
				c.mu.Lock()
				c.prev = nil // only the view before is taken over, not a chain of them
				c.mu.Unlock()
			}
			return v, err
		})
	}
	return c
}

// newView is the view of the pi charter dir with the evidence ev; prev,
// the view of the snapshot before (or nil), lends what did not change.
func (s *Snapshot) newView(ctx context.Context, dir string, ev *pi.Evidence, prev *pi.View) (*pi.View, error) {
	// The register's parse is the heavy part of loading what is left: it
	// is taken under ctx first, so a cancelled load stops in it, and
	// LoadDirWith below finds it done.
	if f := s.File(vfs.Join(dir, "criteria.md")); f.Exists() && !f.TooLarge() {
		if _, err := f.criteriaUnder(ctx); err != nil {
			return nil, err
		}
	}
	var prevDir *pi.Dir
	if prev != nil {
		prevDir = prev.Dir
	}
	d := pi.LoadDirWith(s.FS(), dir, pi.LoadOptions{
		Evidence: ev,
		Prev:     prevDir,
		Criteria: func(path string, _ []byte) *pi.Criteria { return s.File(path).Criteria() },
		Index:    func(path string, _ []byte) *source.Index { return s.File(path).Index() },
	})
	cfg, _ := s.Config(vfs.Join(dir, "criteria.md"))
	clock, err := s.clock(ctx, d.Project, cfg)
	if err != nil {
		return nil, err
	}
	v := pi.NextView(prev, s.FS(), d, clock)
	return v, ctx.Err()
}

// PiView returns the view of the pi charter directory dir: criteria,
// evidence with outcomes, staleness, progress. It is computed once per
// snapshot of the charter's files, and its evidence once per change of the
// work/ folder.
func (s *Snapshot) PiView(ctx context.Context, dir string) (*pi.View, error) {
	return s.charterFor(dir).view.get(ctx)
}

// piDiagnostics are the diagnostics of path, a file of the pi charter dir.
func (s *Snapshot) piDiagnostics(ctx context.Context, dir, path string, memo bool) ([]diag.Diagnostic, error) {
	c := s.charterFor(dir)
	c.mu.Lock()
	if c.checks == nil {
		c.checks = map[string]*promise[[]diag.Diagnostic]{}
	}
	pr := c.checks[path]
	if pr == nil && !memo {
		// Asked once (DiagnosticsOf releasing what it checked): computed
		// here, not kept for the next asker — a history's hundred
		// thousand runs are not held as as many promises.
		c.mu.Unlock()
		return s.piCheck(ctx, c, path)
	}
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) ([]diag.Diagnostic, error) {
			return s.piCheck(ctx, c, path)
		})
		c.checks[path] = pr
	}
	c.mu.Unlock()
	return pr.get(ctx)
}

// piCheck computes the diagnostics of path, a file of the pi charter c.
func (s *Snapshot) piCheck(ctx context.Context, c *charter, path string) ([]diag.Diagnostic, error) {
	s.sess.checks.Add(1)
	v, err := c.view.get(ctx)
	if err != nil {
		return nil, err
	}
	ds := v.Diagnostics(ctx, path, s.Created)
	if err := ctx.Err(); err != nil {
		return nil, err // cut short: not an answer
	}
	md := strings.HasSuffix(strings.ToLower(path), ".md")
	if len(ds) == 0 && !md {
		// Finish has nothing to do (no suppression comments outside
		// markdown): the configuration is not looked up for each of a
		// history's runs with nothing to say.
		return ds, nil
	}
	cfg, _ := s.Config(path)
	// Finish needs the text's index for a markdown file's suppression
	// comments and for a diagnostic not located yet; an evidence run's come
	// located (the check read the run to place them), and it is not read
	// once more for nothing.
	var ix *source.Index
	if md || slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.File == "" }) {
		ix = s.fileOnce(path).Index()
	}
	return analysis.Finish(ds, path, ix, cfg), nil
}
