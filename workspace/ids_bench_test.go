package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// citesProject writes a project of n code files (half under src/, half
// tests), each about 4 KB citing two VALs, and a register to open.
func citesProject(b *testing.B, n int) (root, criteria string) {
	b.Helper()
	root = b.TempDir()
	body := strings.Repeat("\t// an ordinary line of code that cites nothing at all\n", 70)
	for i := range n {
		dir := filepath.Join(root, "src", fmt.Sprintf("pkg%03d", i/20))
		name := fmt.Sprintf("file%d.go", i)
		if i%2 == 1 {
			dir = filepath.Join(root, "tests", fmt.Sprintf("pkg%03d", i/20))
			name = fmt.Sprintf("file%d.test.ts", i)
		}
		text := fmt.Sprintf("package p\n\n// VAL-B-%03d\nfunc f() {\n%s\t_ = \"VAL-B-%03d\"\n}\n", i%50, body, (i+1)%50)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	criteria = filepath.Join(root, ".pi", "charters", "c", "criteria.md")
	if err := os.MkdirAll(filepath.Dir(criteria), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(criteria, []byte("# Criteria\n\n### VAL-B-001 — x\nVerifier: manual\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return root, criteria
}

// BenchmarkCites is the cites of a project of 2,000 code files: cold (a
// new session: every file listed and read once), and warm (the snapshot
// after a keystroke in the register: the disk's listings and each file's
// scan are kept, nothing is read).
func BenchmarkCites(b *testing.B) {
	root, criteria := citesProject(b, 2000)
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			sess := workspace.NewSession(workspace.Options{})
			sess.Update(workspace.Change{Roots: &[]string{root}})
			cites, err := sess.Snapshot().Cites(ctx, root)
			if err != nil || len(cites["VAL-B-001"]) == 0 {
				b.Fatalf("%v %d", err, len(cites))
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		sess := workspace.NewSession(workspace.Options{})
		sess.Update(workspace.Change{Roots: &[]string{root}})
		if _, err := sess.Snapshot().Cites(ctx, root); err != nil {
			b.Fatal(err)
		}
		version := int32(1)
		for b.Loop() {
			version++
			text := fmt.Sprintf("# Criteria\n\n### VAL-B-001 — x %d\nVerifier: manual\n", version)
			snap := sess.Update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(criteria, version, []byte(text))}})
			cites, err := snap.Cites(ctx, root)
			if err != nil || len(cites["VAL-B-001"]) != 80 {
				b.Fatalf("%v %d", err, len(cites["VAL-B-001"]))
			}
		}
	})
}
