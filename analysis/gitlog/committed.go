package gitlog

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Committed reports whether content is what both the index and the last
// commit (HEAD) hold for the file at path, as `git status` says of a clean
// file — read from the repository's files, without running git. known is
// false outside a repository, before the first commit, for a file the index
// does not track (new, untracked or removed from it), or when the budget
// runs out: then git cannot tell.
func Committed(ctx context.Context, path string, content []byte) (same, known bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	b := &budget{ctx: ctx, maxBytes: 64 << 20}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, false
	}
	workTree, gitDir, err := find(filepath.Dir(abs))
	if err != nil {
		return false, false
	}
	rel, err := filepath.Rel(workTree, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return false, false
	}
	st, err := open(gitDir, b)
	if err != nil {
		return false, false
	}
	defer st.Close()
	ref, err := storer.ResolveReference(st.refs, plumbing.HEAD)
	if err != nil {
		return false, false
	}
	w := &walker{st: st, b: b}
	head, err := w.commit(ref.Hash())
	if err != nil {
		return false, false
	}
	name := filepath.ToSlash(rel)
	entries, err := st.index(func(n []byte) bool { return string(n) == name })
	if err != nil || len(entries) != 1 || entries[0].stage != 0 {
		return false, false // not tracked, or in conflict
	}
	staged := entries[0]
	e, err := w.lookup(head.TreeHash, name)
	if err != nil || errors.Is(b.check(), context.DeadlineExceeded) {
		return false, false
	}
	return e.hash == staged.hash && staged.hash == plumbing.ComputeHash(plumbing.BlobObject, content), true
}
