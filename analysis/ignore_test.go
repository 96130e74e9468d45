package analysis

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// The folder walk skips what git ignores (.gitignore files from the
// repository root down, each below its own folder, negations included)
// and what --ignore names; it used to check every
// charter .gitignore hides. node_modules and vendor stay skipped whatever
// git says.
func TestDiscoverRespectsGitignore(t *testing.T) {
	repo := t.TempDir()
	const rp1 = "# Project Charter: X\n\n## Vision\n\n_TBD_\n"
	files := map[string]string{
		".gitignore":                       "build/\n*.draft.md\n# a comment\n!keep.draft.md\n",
		".git/HEAD":                        "ref: refs/heads/main\n",
		"docs/charter.md":                  rp1,
		"build/charter.md":                 rp1,
		"notes/x.draft.md":                 rp1,
		"notes/keep.draft.md":              rp1,
		"sub/.gitignore":                   "private/\n",
		"sub/private/charter.md":           rp1,
		"sub/public/charter.md":            rp1,
		"private/charter.md":               rp1, // sub/.gitignore does not reach here
		"node_modules/pkg/charter.md":      rp1,
		".pi/charters/old/criteria.md":     "## m1\n",
		".pi/charters/current/criteria.md": "## m1\n",
		"drafts/charter.md":                rp1,
	}
	for name, text := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("build/\n*.draft.md\n# a comment\n!keep.draft.md\n.pi/charters/old/\n"), 0o644)
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(repo, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	ws, err := DiscoverWith(context.Background(), vfs.OS, repo, DiscoverOptions{Ignore: []string{"drafts/"}, Base: repo})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/charter.md", "notes/keep.draft.md", "private/charter.md", "sub/public/charter.md"}
	if got := rel(ws.RP1Charters); !slices.Equal(got, want) {
		t.Errorf("rp1 charters %v, want %v", got, want)
	}
	if got := rel(ws.PiCharters); !slices.Equal(got, []string{".pi/charters/current"}) {
		t.Errorf("pi charters %v", got)
	}
	for _, ignored := range []string{"build", "notes/x.draft.md", "sub/private", ".pi/charters/old", "drafts"} {
		if !slices.Contains(rel(ws.Ignored), ignored) {
			t.Errorf("%s is not listed as ignored: %v", ignored, rel(ws.Ignored))
		}
	}
	// From a folder inside the repository, the .gitignore above applies.
	ws, _ = Discover(context.Background(), vfs.OS, filepath.Join(repo, "sub"))
	if got := rel(ws.RP1Charters); !slices.Equal(got, []string{"sub/public/charter.md"}) {
		t.Errorf("from sub/: %v", got)
	}
	ws, _ = Discover(context.Background(), vfs.OS, filepath.Join(repo, "notes"))
	if got := rel(ws.RP1Charters); !slices.Equal(got, []string{"notes/keep.draft.md"}) {
		t.Errorf("from notes/: %v", got)
	}
}
