package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// A project's cites are computed once and carried over while only charter
// files change; a code file changed on disk or edited in the editor, or
// new settings, make them again.
func TestCitesCarriedOver(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{
		".pi/charters/c/criteria.md": "# Criteria\n\n### VAL-A-1 — x\nVerifier: manual\n",
		"src/a_test.go":              "package a\n\n// VAL-A-1\n",
	})
	ctx := context.Background()
	sess := workspace.NewSession(workspace.Options{})
	sess.Update(workspace.Change{Roots: &[]string{root}})
	cites := func(snap *workspace.Snapshot) workspace.Cites {
		t.Helper()
		c, err := snap.Cites(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	same := func(a, b workspace.Cites) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }
	first := cites(sess.Snapshot())
	if len(first["VAL-A-1"]) != 1 {
		t.Fatalf("cites = %v", first)
	}
	criteria := filepath.Join(root, ".pi/charters/c/criteria.md")
	snap := sess.Update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(criteria, 1, []byte("# Criteria\n"))}})
	if !same(first, cites(snap)) {
		t.Errorf("a keystroke in the register computed the cites again")
	}
	code := filepath.Join(root, "src/a_test.go")
	snap = sess.Update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(code, 1, []byte("// VAL-A-1 VAL-A-1\n"))}})
	if got := cites(snap); len(got["VAL-A-1"]) != 2 {
		t.Errorf("after editing the test in the editor: %d cites, want 2", len(got["VAL-A-1"]))
	}
	snap = sess.Update(workspace.Change{Closed: []string{code}})
	if err := os.WriteFile(filepath.Join(root, "src/b_test.go"), []byte("// VAL-A-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := cites(snap)
	snap = sess.Update(workspace.Change{Disk: []string{filepath.Join(root, "src/b_test.go")}})
	if got := cites(snap); same(before, got) || len(got["VAL-A-1"]) != 2 {
		t.Errorf("after a test appeared on disk: %d cites, want 2", len(got["VAL-A-1"]))
	}
	before = cites(snap)
	st := workspace.Settings{}
	st.Config.SourceDirs = []string{"lib"}
	snap = sess.Update(workspace.Change{Settings: &st})
	if got := cites(snap); same(before, got) || len(got["VAL-A-1"]) != 2 {
		t.Errorf("after new settings: %v (the tests still count by their names)", got)
	}
}
