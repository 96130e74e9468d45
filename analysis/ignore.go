package analysis

import (
	"bufio"
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// ignorer says which paths a folder walk skips: what the repository's
// .gitignore files ignore (every .gitignore from the repository root down,
// each applying below its folder, as git reads them), and patterns the
// user gives (check --ignore), in gitignore's syntax relative to the
// folder they were given in. Matching is go-git's gitignore package.
// Nothing inside .git is read (not info/exclude either): the server's
// snapshot reads the disk through its cache, and git's own files are the
// history readers' (analysis/gitlog).
type ignorer struct {
	fsys vfs.FS
	repo string // the repository root ("": not in one; then the walk's root)
	git  []gitignore.Pattern
	user []gitignore.Pattern
	base string // the folder user patterns are relative to
}

// newIgnorer reads the ignore files that apply above and at root (the
// .gitignore files of the folders below root are read as the walk enters
// them, by enter).
func newIgnorer(fsys vfs.FS, root string, user []string, base string) *ignorer {
	ig := &ignorer{fsys: fsys, repo: repoRoot(fsys, root), base: base}
	for _, p := range user {
		if p = strings.TrimSpace(p); p != "" {
			ig.user = append(ig.user, gitignore.ParsePattern(filepath.ToSlash(p), nil))
		}
	}
	if ig.repo == "" {
		ig.repo = root
	}
	// The .gitignore of every folder from the repository root down to
	// root's parent: enter reads root's own and those below.
	rel, err := filepath.Rel(ig.repo, root)
	if err == nil && rel != "." && filepath.IsLocal(rel) {
		parts := strings.Split(rel, string(filepath.Separator))
		dir := ig.repo
		ig = ig.enter(dir, nil)
		for _, part := range parts[:len(parts)-1] {
			dir = filepath.Join(dir, part)
			ig = ig.enter(dir, nil)
		}
	}
	return ig
}

// repoRoot is the nearest folder at or above dir holding .git (a folder,
// or the file of a worktree), "" when none can be seen.
func repoRoot(fsys vfs.FS, dir string) string {
	for {
		if _, err := fsys.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// enter is ig inside dir, whose listing is entries (nil: not listed):
// with the patterns of dir's .gitignore, which apply below dir, when it
// has one. ig itself does not change: the walk's goroutines share the
// ignorer of the folders above them.
func (ig *ignorer) enter(dir string, entries []fs.DirEntry) *ignorer {
	if entries != nil {
		if !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == ".gitignore" }) {
			return ig // nothing to read
		}
	}
	rel, err := filepath.Rel(ig.repo, dir)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return ig
	}
	var domain []string
	if rel != "." {
		domain = strings.Split(filepath.ToSlash(rel), "/")
	}
	patterns := ig.read(filepath.Join(dir, ".gitignore"), domain)
	if len(patterns) == 0 {
		return ig
	}
	in := *ig
	in.git = append(slices.Clip(ig.git), patterns...)
	return &in
}

// read is the patterns of one ignore file (bounded, like every read).
func (ig *ignorer) read(file string, domain []string) []gitignore.Pattern {
	src, err := ig.fsys.ReadFile(file)
	if err != nil {
		return nil
	}
	var patterns []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		patterns = append(patterns, gitignore.ParsePattern(line, domain))
	}
	return patterns
}

// ignored reports whether the walk skips path, a folder when isDir.
func (ig *ignorer) ignored(path string, isDir bool) bool {
	// No pattern matches nothing: the relative path is made only for
	// patterns to match (the walk asks this of every entry).
	if len(ig.git) > 0 {
		if rel, err := filepath.Rel(ig.repo, path); err == nil && filepath.IsLocal(rel) &&
			gitignore.NewMatcher(ig.git).Match(strings.Split(filepath.ToSlash(rel), "/"), isDir) {
			return true
		}
	}
	if len(ig.user) > 0 {
		if rel, err := filepath.Rel(ig.base, path); err == nil && filepath.IsLocal(rel) {
			return gitignore.NewMatcher(ig.user).Match(strings.Split(filepath.ToSlash(rel), "/"), isDir)
		}
	}
	return false
}
