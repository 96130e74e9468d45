package analysis

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		path    string
		content string
		want    Kind
	}{
		{"/p/.pi/charters/auth/charter.md", "# Charter", KindPiCharter},
		{"/p/.pi/charters/auth/criteria.md", "", KindCriteria},
		{"/p/.pi/charters/auth/REPORT.md", "", KindReport},
		{"/p/.pi/charters/auth/state.json", "", KindState},
		{"/p/.pi/charters/auth/criterion-state.json", "", KindCriterionState},
		{"/p/.pi/charters/auth/work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json", "", KindEvidence},
		{"/p/.pi/charters/auth/work/_charter/notes.json", "", KindNone},
		{".pi/charters/auth/criteria.md", "", KindCriteria},
		{"/p/.rp1/context/charter.md", "# Anything", KindRP1Charter},
		{"/p/docs/CHARTER.md", "", KindRP1Charter}, // empty: an interview can start here
		{"/p/docs/charter.md", "# T\n\n## Target Users\n", KindRP1Charter},
		{"/p/docs/charter.md", "# T\r\n\r\n## Scratch Pad\r\n", KindRP1Charter},
		{"/p/docs/charter.md", "# Team charter\n\n## Working agreements\n", KindOtherCharter},
		{"/p/README.md", "## Target Users", KindNone},
		{"/p/notes/resume.md", "# Project Charter: X\n", KindRP1Charter},
		{"/p/notes/resume.md", "# Notes\n\n## Scratch Pad\n", KindRP1Charter},
		{"/p/notes/resume.md", "# Notes\n\n# Project Charter: X\n", KindNone},
		{"/p/.charter-lsp.jsonc", "{}", KindConfig},
	}
	for _, c := range cases {
		if got := Classify(c.path, []byte(c.content)); got != c.want {
			t.Errorf("Classify(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}

func TestPiCharterDir(t *testing.T) {
	for path, want := range map[string]string{
		"/p/.pi/charters/auth/criteria.md":              "/p/.pi/charters/auth",
		"/p/.pi/charters/auth/work/x/evidence/s/e.json": "/p/.pi/charters/auth",
		"/p/.pi/charters/auth":                          "",
		"/p/.pi/other/auth/criteria.md":                 "",
	} {
		if got := PiCharterDir(path); got != want {
			t.Errorf("PiCharterDir(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".rp1/context/charter.md", "# C\n")
	write("teams/charter.md", "# Team rules\n")
	write(".pi/charters/a/criteria.md", "")
	write(".pi/charters/b/charter.md", "")
	write("node_modules/x/.rp1/context/charter.md", "")
	write(".pi/charters/a/work/_charter/evidence/s1/evidence.json", "{}")
	os.Symlink("/", filepath.Join(root, "escape"))

	ws, err := Discover(context.Background(), vfs.OS, root)
	if err != nil {
		t.Fatal(err)
	}
	want := Workspace{
		RP1Charters:   []string{filepath.Join(root, ".rp1/context/charter.md")},
		OtherCharters: []string{filepath.Join(root, "teams/charter.md")},
		PiCharters:    []string{filepath.Join(root, ".pi/charters/a"), filepath.Join(root, ".pi/charters/b")},
	}
	if !reflect.DeepEqual(ws, want) {
		t.Fatalf("Discover = %+v\nwant %+v", ws, want)
	}
	files := PiCharterFiles(vfs.OS, filepath.Join(root, ".pi/charters/a"))
	wantFiles := []string{
		filepath.Join(root, ".pi/charters/a/criteria.md"),
		filepath.Join(root, ".pi/charters/a/work/_charter/evidence/s1/evidence.json"),
	}
	if !reflect.DeepEqual(files, wantFiles) {
		t.Fatalf("PiCharterFiles = %v, want %v", files, wantFiles)
	}
}

func TestDiscoverStopsWhenCancelled(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".pi", "charters", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ws, err := Discover(ctx, vfs.OS, root); !errors.Is(err, context.Canceled) || len(ws.PiCharters) != 0 {
		t.Errorf("cancelled discovery = %+v, %v", ws, err)
	}
}
