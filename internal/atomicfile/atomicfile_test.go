package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(got) != "new" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("got %q mode %v", got, fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary file left behind: %v", entries)
	}
}

func TestFailedWriteLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "missing-dir", "f.json")
	if err := Write(p, []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing directory should fail")
	}
	// A read-only directory: the temp file cannot be created, the old file stays.
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o755)
	target := filepath.Join(ro, "f.json")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	if err := Write(target, []byte("new"), 0o644); err == nil {
		t.Fatal("expected failure in read-only dir")
	}
	if got, _ := os.ReadFile(target); string(got) != "old" {
		t.Fatalf("old file changed: %q", got)
	}
}
