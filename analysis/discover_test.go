package analysis

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// A walk that hands each charter over as it finds it (Found) finds what a
// walk that lists them finds, ignored paths and all, and says a folder is
// done (Done) only after everything below it was handed over: a caller
// may let the folder go then.
func TestDiscoverFoundAndDone(t *testing.T) {
	repo := t.TempDir()
	const rp1 = "# Project Charter: X\n\n## Vision\n\n_TBD_\n"
	files := map[string]string{
		".gitignore":                       "build/\n",
		".git/HEAD":                        "ref: refs/heads/main\n",
		"docs/charter.md":                  rp1,
		"build/charter.md":                 rp1,
		"notes.md":                         "# Notes\n",
		"a/charter.md":                     "# Not rp1\n",
		"a/b/c/charter.md":                 rp1,
		"a/b/.pi/charters/one/criteria.md": "## m1\n",
		"a/b/.pi/charters/two/criteria.md": "## m1\n",
		"pkg/.charters/20260101-000000-x/charter.md": "# X\n",
		"pkg/.charters/20260101-000000-x/state.json": "{}\n",
		"pkg/src/main.go": "package main\n",
	}
	testfixture.WriteFiles(t, repo, files)
	ctx := context.Background()
	want, err := Discover(ctx, vfs.OS, repo)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got Workspace
	done := map[string]bool{}
	var late []string // found below a folder already done
	ws, err := DiscoverWith(ctx, vfs.OS, repo, DiscoverOptions{
		Found: func(family Family, path string) {
			mu.Lock()
			defer mu.Unlock()
			for dir := filepath.Dir(path); strings.HasPrefix(dir, repo); dir = filepath.Dir(dir) {
				if done[dir] {
					late = append(late, path+" after "+dir)
				}
			}
			switch family {
			case FamilyRP1:
				got.RP1Charters = append(got.RP1Charters, path)
			case FamilyPi:
				got.PiCharters = append(got.PiCharters, path)
			case FamilyCharters:
				got.Charters = append(got.Charters, path)
			}
		},
		Done: func(dir string) {
			mu.Lock()
			defer mu.Unlock()
			if done[dir] {
				t.Errorf("%s done twice", dir)
			}
			done[dir] = true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []*[]string{&got.RP1Charters, &got.PiCharters, &got.Charters} {
		slices.Sort(*l)
	}
	if !slices.Equal(got.RP1Charters, want.RP1Charters) || !slices.Equal(got.PiCharters, want.PiCharters) || !slices.Equal(got.Charters, want.Charters) {
		t.Errorf("found %+v, listed %+v", got, want)
	}
	if len(want.RP1Charters) != 2 || len(want.PiCharters) != 2 || len(want.Charters) != 1 {
		t.Errorf("the walk lists %+v", want)
	}
	if len(ws.RP1Charters)+len(ws.PiCharters)+len(ws.Charters) > 0 {
		t.Errorf("handed over and listed too: %+v", ws)
	}
	if !slices.Equal(ws.OtherCharters, want.OtherCharters) || !slices.Equal(ws.Ignored, want.Ignored) || len(ws.Ignored) != 1 {
		t.Errorf("other charters %v and ignored %v, listing: %v and %v", ws.OtherCharters, ws.Ignored, want.OtherCharters, want.Ignored)
	}
	if len(late) > 0 {
		t.Errorf("found below a folder said done: %v", late)
	}
	for _, dir := range []string{repo, filepath.Join(repo, "a", "b"), filepath.Join(repo, "a", "b", ".pi", "charters"), filepath.Join(repo, "pkg", ".charters"), filepath.Join(repo, "pkg", "src")} {
		if !done[dir] {
			t.Errorf("%s never said done", dir)
		}
	}
}

// A .gitignore inside .pi/charters or .charters applies to the charter
// folders listed there, as git reads it, whether the walk reaches that
// folder from above or is given it as its root.
func TestDiscoverReadsTheChartersFoldersOwnGitignore(t *testing.T) {
	repo := t.TempDir()
	testfixture.WriteFiles(t, repo, map[string]string{
		".git/HEAD":                                 "ref: refs/heads/main\n",
		".pi/charters/.gitignore":                   "old/\n",
		".pi/charters/old/criteria.md":              "## m1\n",
		".pi/charters/kept/criteria.md":             "## m1\n",
		".charters/.gitignore":                      "20250101-000000-old/\n",
		".charters/20250101-000000-old/charter.md":  "# Old\n",
		".charters/20250101-000000-old/state.json":  "{}\n",
		".charters/20260101-000000-kept/charter.md": "# Kept\n",
		".charters/20260101-000000-kept/state.json": "{}\n",
	})
	ctx := context.Background()
	for _, root := range []string{repo, filepath.Join(repo, ".pi"), filepath.Join(repo, ".pi", "charters"), filepath.Join(repo, ".charters")} {
		ws, err := Discover(ctx, vfs.OS, root)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append(slices.Clone(ws.PiCharters), ws.Charters...) {
			if strings.Contains(filepath.Base(p), "old") {
				t.Errorf("walk from %s: %s, which the .gitignore beside it ignores, was found", root, p)
			}
		}
		if len(ws.PiCharters)+len(ws.Charters) == 0 {
			t.Errorf("walk from %s found nothing: the test sees nothing", root)
		}
	}
}
