package workspace

import (
	"context"
	"io/fs"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Symbol is a VAL as a workspace symbol, located: what workspace/symbol
// answers, kept for every charter of a monorepo without its files' text.
type Symbol struct {
	Name, Container string
	Path            string
	Range           source.Range
}

// Symbols are the VALs of every pi charter under the workspace folders
// (Charters), each charter's read once per change of its register
// (charter.md, criteria.md): from the register alone, not the evidence,
// and through the disk without keeping the files' text, so that the
// symbols of ten thousand charters cost what their names do. progress,
// when set, is told how many charters are read of how many. Charters are
// read on as many goroutines as there are processors, less one when there
// is more than one: a scan in the background leaves a processor to the
// documents being edited.
func (s *Snapshot) Symbols(ctx context.Context, progress func(done, total int)) ([][]Symbol, error) {
	found, err := s.Charters(ctx)
	if err != nil {
		return nil, err
	}
	out := make([][]Symbol, len(found.PiCharters))
	var done atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, runtime.GOMAXPROCS(0)-1))
	for i, dir := range found.PiCharters {
		g.Go(func() error {
			syms, err := s.charterFor(dir).symbolsOf(ctx, s)
			if err != nil {
				return err
			}
			out[i] = syms
			if n := done.Add(1); progress != nil {
				progress(int(n), len(out))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// symbolsOf reads c's symbols once: from its view when one is computed
// (an open charter), otherwise from its register read through the disk.
func (c *charter) symbolsOf(ctx context.Context, s *Snapshot) ([]Symbol, error) {
	c.mu.Lock()
	if c.symbols == nil {
		view := c.view
		c.symbols = newPromise(s.sess.busy, func(ctx context.Context) ([]Symbol, error) {
			var d *pi.Dir
			if v, ok := view.peek(); ok && v != nil {
				d = v.Dir
			} else {
				// No evidence, and nothing of it kept: the files are read
				// through (their stat kept, so a change is seen).
				d = pi.LoadDirWith(throughFS{s.FS()}, c.dir, pi.LoadOptions{Evidence: &pi.Evidence{}})
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var out []Symbol
			for _, sym := range pi.DirSymbols(d) {
				f := d.File(sym.Location.Path)
				if f == nil {
					continue
				}
				out = append(out, Symbol{Name: sym.Name, Container: sym.Container, Path: sym.Location.Path, Range: f.Index.Range(sym.Location.Span)})
			}
			return out, nil
		})
	}
	pr := c.symbols
	c.mu.Unlock()
	return pr.get(ctx)
}

// throughFS reads a file of the disk without keeping it (disk.readThrough),
// unless it is open or held already.
type throughFS struct{ snapshotFS }

func (t throughFS) ReadFile(name string) ([]byte, error) {
	f := t.s.fileThrough(name)
	if f.Err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: f.Err}
	}
	return f.Text, nil
}
