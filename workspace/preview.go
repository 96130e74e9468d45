package workspace

import (
	"context"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// PreviewRuns is the history (runs) from which a pi charter's register is first
// checked from part of its evidence (Preview): below it, reading every run
// takes less than a keystroke's budget of patience.
var PreviewRuns = 10_000

// Preview returns the diagnostics of path, a pi charter's criteria.md or
// charter.md, checked with only the evidence runs criterion-state.json
// names as each VAL's latest (pi.LoadRuns), while the charter's evidence
// is not loaded yet and holds at least PreviewRuns runs; ok is false
// otherwise (Diagnostics answers soon enough). When criterion-state.json is
// up to date with the runs, they are what Diagnostics answers once every
// run is read: the server publishes them first, then the full answer.
func (s *Snapshot) Preview(ctx context.Context, path string) (ds []diag.Diagnostic, ok bool, err error) {
	path = vfs.Clean(path)
	dir := analysis.PiCharterDir(path)
	switch base := filepath.Base(path); {
	case dir == "" || vfs.Dir(path) != dir || base != "criteria.md" && base != "charter.md":
		return nil, false, nil
	}
	c := s.charterFor(dir)
	if _, loaded := c.evidence.peek(); loaded || s.countRuns(dir) < PreviewRuns {
		return nil, false, nil
	}
	ev, err := s.partialEvidence(ctx, c)
	if err != nil || ev == nil {
		return nil, false, err
	}
	v, err := s.newView(ctx, dir, ev, nil)
	if err != nil {
		return nil, false, err
	}
	cfg, _ := s.Config(path)
	ds = v.Diagnostics(ctx, path, s.Created)
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	return analysis.Finish(ds, path, s.File(path).Index(), cfg), true, nil
}

// countRuns is how many run folders the charter dir's work/ holds, from
// the listings of its segments' evidence folders (which its evidence's
// load lists anyway).
func (s *Snapshot) countRuns(dir string) int {
	fsys := s.FS()
	segs, _ := fsys.ReadDir(filepath.Join(dir, "work"))
	n := 0
	for _, seg := range segs {
		if seg.IsDir() {
			runs, _ := fsys.ReadDir(filepath.Join(dir, "work", seg.Name(), "evidence"))
			n += len(runs)
		}
	}
	return n
}

// Loading says how far the evidence of the pi charter dir is loaded (runs
// of total), while it is being loaded; loading is false otherwise.
func (s *Snapshot) Loading(dir string) (runs, total int, loading bool) {
	s.mu.Lock()
	c := s.charters[vfs.Clean(dir)]
	s.mu.Unlock()
	if c == nil {
		return 0, 0, false
	}
	c.mu.Lock()
	ev := c.evidence
	c.mu.Unlock()
	if ev == nil || !ev.running() {
		return 0, 0, false
	}
	return int(c.loaded.Load()), int(c.runs.Load()), true
}

// partialEvidence is the runs of c that its criterion-state.json names (nil
// without one), read once while the rest is read: each keystroke's preview
// takes them as they are.
func (s *Snapshot) partialEvidence(ctx context.Context, c *charter) (*pi.Evidence, error) {
	c.mu.Lock()
	if c.partial == nil {
		dir := c.dir
		c.partial = newPromise(s.sess.busy, func(ctx context.Context) (*pi.Evidence, error) {
			f := s.File(filepath.Join(dir, "criterion-state.json"))
			if !f.Exists() {
				return nil, nil
			}
			state, _ := pi.ParseCriterionState(f.Text)
			if state == nil {
				return nil, nil
			}
			var rels []string
			for _, e := range state.Entries {
				if e.LastEvidencePath != "" {
					rels = append(rels, e.LastEvidencePath)
				}
			}
			return pi.LoadRuns(ctx, s.FS(), dir, rels)
		})
	}
	pr := c.partial
	c.mu.Unlock()
	return pr.get(ctx)
}
