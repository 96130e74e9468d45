package gitlog

import (
	"context"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Committed reports whether content is what both the index and the last
// commit (HEAD) hold for the file at path, as `git status` says of a clean
// file — read from the repository's files, without running git. known is
// false outside a repository, before the first commit, for a file the index
// does not track (new, untracked or removed from it), or when the budget
// runs out: then git cannot tell.
func Committed(ctx context.Context, path string, content []byte) (same, known bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, false
	}
	r, err := Open(ctx, filepath.Dir(abs), Limits{Timeout: 2 * time.Second, Bytes: 64 << 20})
	if err != nil {
		return false, false
	}
	defer r.Close()
	rel, err := filepath.Rel(r.workTree, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return false, false
	}
	head, err := r.headCommit()
	if err != nil {
		return false, false
	}
	name := filepath.ToSlash(rel)
	entries, err := r.r.index(func(n []byte) bool { return string(n) == name })
	if err != nil || len(entries) != 1 || entries[0].stage != 0 {
		return false, false // not tracked, or in conflict
	}
	staged := entries[0]
	w := &walker{st: r.r, b: r.b}
	e, err := w.lookup(head.TreeHash, name)
	if err != nil || r.b.check() != nil {
		return false, false
	}
	return e.hash == staged.hash && staged.hash == plumbing.ComputeHash(plumbing.BlobObject, content), true
}
