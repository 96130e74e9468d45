package workspace

import (
	"context"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Cites are the VAL ids a project's code and tests cite, by id, each id's
// places in file order.
type Cites map[string][]ids.Ref

// idsMemo is a snapshot's memo of the projects' cites.
type idsMemo struct {
	mu    sync.Mutex
	cites map[string]*promise[Cites] // by project
}

// carry gives next the cites of m that the change left alone: a project's
// are carried over unless a file outside the charter folders changed in it
// (on disk, or an open document's text), or everything may have
// (settings, folders, a disk that cannot be watched). A charter file never
// counts as code, so a keystroke in a register keeps them.
func (m *idsMemo) carry(next *idsMemo, changed map[string]bool, everything bool) {
	if everything {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for project, pr := range m.cites {
		touched := false
		for p := range changed {
			if analysis.CharterFolder(p) == "" && within(project, p) {
				touched = true
				break
			}
		}
		if !touched {
			if next.cites == nil {
				next.cites = map[string]*promise[Cites]{}
			}
			next.cites[project] = pr
		}
	}
}

// citeCache keeps each code file's cites across snapshots until the file
// changes on disk (its stat, which the disk keeps until a change event,
// differs): a snapshot walks the project's listings, which the disk keeps
// too, and reads only the files that changed, without keeping their text.
type citeCache struct {
	mu    sync.Mutex
	files map[string]citeEntry
}

type citeEntry struct {
	size  int64
	mod   time.Time
	mode  fs.FileMode
	cites []ids.Cite
}

// Cites returns the VAL ids cited by the code and tests of project (the
// folder holding .pi/), by the files ids.WalkCode counts, under the
// project's sourceDirs setting. It is computed once per snapshot; an open
// document is read as the editor has it.
func (s *Snapshot) Cites(ctx context.Context, project string) (Cites, error) {
	project = vfs.Clean(project)
	s.ids.mu.Lock()
	if s.ids.cites == nil {
		s.ids.cites = map[string]*promise[Cites]{}
	}
	pr := s.ids.cites[project]
	if pr == nil {
		pr = newPromise(s.sess.busy, func(ctx context.Context) (Cites, error) { return s.walkCites(ctx, project) })
		s.ids.cites[project] = pr
	}
	s.ids.mu.Unlock()
	return pr.get(ctx)
}

func (s *Snapshot) walkCites(ctx context.Context, project string) (Cites, error) {
	cfg, _ := s.Config(filepath.Join(project, ".charter-lsp.jsonc"))
	out := Cites{}
	seen := map[string]bool{}
	err := ids.WalkCode(ctx, s.FS(), project, cfg.Sources(), func(path string) {
		seen[path] = true
		for _, c := range s.citesOf(path) {
			out[c.ID] = append(out[c.ID], c.Ref)
		}
	})
	if err != nil {
		return nil, err
	}
	s.sess.cites.prune(project, seen)
	return out, nil
}

// citesOf scans one code file: the open document's text, else the disk's,
// whose scan is kept while its stat stays the same.
func (s *Snapshot) citesOf(path string) []ids.Cite {
	if f := s.docs[path]; f != nil {
		if len(f.Text) > ids.MaxCodeFileSize {
			return nil
		}
		return ids.CitesIn(path, f.Text)
	}
	info, err := s.sess.disk.stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > ids.MaxCodeFileSize {
		return nil
	}
	c := &s.sess.cites
	c.mu.Lock()
	e, ok := c.files[path]
	c.mu.Unlock()
	if ok && e.size == info.Size() && e.mod.Equal(info.ModTime()) && e.mode == info.Mode() {
		return e.cites
	}
	f := s.sess.disk.readThrough(path)
	if f.Err != nil {
		return nil
	}
	e = citeEntry{size: info.Size(), mod: info.ModTime(), mode: info.Mode(), cites: ids.CitesIn(path, f.Text)}
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]citeEntry{}
	}
	c.files[path] = e
	c.mu.Unlock()
	return e.cites
}

// prune forgets the files of project a walk did not visit (deleted, or
// no longer counted as code).
func (c *citeCache) prune(project string, seen map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.files {
		if vfs.Below(project, p) && !seen[p] {
			delete(c.files, p)
		}
	}
}
