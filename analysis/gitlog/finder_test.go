package gitlog_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
)

// A Finder answers what Open answers for each project of a monorepo, and
// does not look again in a folder above a project it saw without .git: it
// is for one moment of the disk.
func TestFinderSharesTheFoldersAbove(t *testing.T) {
	root := t.TempDir()
	mono := filepath.Join(root, "mono")
	var projects []string
	for _, p := range []string{"a", "b", "c"} {
		dir := filepath.Join(mono, "packages", p)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		projects = append(projects, dir)
	}
	f := gitlog.NewFinder()
	for _, p := range projects {
		_, errOpen := gitlog.Open(t.Context(), p, gitlog.Limits{})
		r, err := f.Open(t.Context(), p, gitlog.Limits{})
		if r != nil {
			r.Close()
		}
		if !errors.Is(err, gitlog.ErrNoRepository) || !errors.Is(errOpen, gitlog.ErrNoRepository) {
			t.Fatalf("%s: Finder.Open %v, Open %v; want ErrNoRepository from both", p, err, errOpen)
		}
	}
	// A .git appears above the projects: Open sees it (it is empty, so
	// not a repository it can read), the Finder, which saw that folder
	// without one, does not look again.
	if err := os.Mkdir(filepath.Join(mono, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := gitlog.Open(t.Context(), projects[0], gitlog.Limits{}); errors.Is(err, gitlog.ErrNoRepository) {
		t.Errorf("Open does not see the new .git: %v", err)
	}
	if _, err := f.Open(t.Context(), projects[1], gitlog.Limits{}); !errors.Is(err, gitlog.ErrNoRepository) {
		t.Errorf("the Finder looked again in a folder it saw without .git: %v", err)
	}
	// A project's own folder is looked at every time.
	if err := os.Mkdir(filepath.Join(projects[2], ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Open(t.Context(), projects[2], gitlog.Limits{}); errors.Is(err, gitlog.ErrNoRepository) {
		t.Errorf("the Finder did not look in the project's own folder: %v", err)
	}
}

// listingOf is a vfs.ListingHolder holding the listings of a few folders.
type listingOf map[string][]string

func (l listingOf) Holds(dir, name string) (has, known bool) {
	names, known := l[dir]
	return slices.Contains(names, name), known
}

// A Finder over listings takes a folder they show without .git for one
// without it, with no look at the disk (it is for the moment they were
// made), and looks at a folder they do not hold, or hold with .git.
func TestFinderListedTakesTheListings(t *testing.T) {
	root := t.TempDir()
	listed := filepath.Join(root, "listed")
	unlisted := filepath.Join(root, "unlisted")
	for _, dir := range []string{listed, unlisted} {
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The listing of listed was made before its .git appeared.
	f := gitlog.NewFinderListed(listingOf{listed: {"src"}})
	if _, err := f.Open(t.Context(), listed, gitlog.Limits{}); !errors.Is(err, gitlog.ErrNoRepository) {
		t.Errorf("a folder listed without .git: %v; want ErrNoRepository, with no look", err)
	}
	if _, err := f.Open(t.Context(), unlisted, gitlog.Limits{}); errors.Is(err, gitlog.ErrNoRepository) {
		t.Errorf("a folder not listed was not looked at: %v", err)
	}
	g := gitlog.NewFinderListed(listingOf{listed: {".git", "src"}})
	if _, err := g.Open(t.Context(), listed, gitlog.Limits{}); errors.Is(err, gitlog.ErrNoRepository) {
		t.Errorf("a folder listed with .git was not looked at: %v", err)
	}
}
