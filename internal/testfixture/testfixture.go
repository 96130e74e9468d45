// Package testfixture gives tests fresh copies of the example charters in
// testdata/fixtures (an unchanged copy of the team's shared fixtures), so no
// test edits them and every package uses the same files and file times.
package testfixture

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Dir is the absolute path of testdata/fixtures.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "fixtures")
}

// Copy copies fixture name (a folder under testdata/fixtures) into a new
// temporary folder and returns the copy.
func Copy(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join(Dir(), name)
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// WriteFiles writes files (a slash-separated path below dir → its
// content) under dir, creating the folders they need.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The pi-project's file times, as its README describes them.
var (
	// ToolWrite: every charter file as the tool last wrote it.
	ToolWrite = time.Date(2026, 11, 12, 16, 30, 0, 0, time.UTC)
	// StateEdited: criterion-state.json, edited by hand the next morning.
	StateEdited = time.Date(2026, 11, 13, 8, 0, 0, 0, time.UTC)
	// SourceChanged: src/auth/token.go, changed after VAL-SESS-001's pass of
	// 2026-11-11T10:15Z, so that pass is stale.
	SourceChanged = time.Date(2026, 11, 12, 9, 0, 0, 0, time.UTC)
)

// PiProject copies the pi-project fixture with its file times set, and
// returns the project folder and the charter folder.
func PiProject(t testing.TB) (project, charter string) {
	t.Helper()
	project = Copy(t, "pi-project")
	charter = filepath.Join(project, ".pi", "charters", "auth-rework")
	SetTimes(t, project, ToolWrite)
	Touch(t, filepath.Join(charter, "criterion-state.json"), StateEdited)
	Touch(t, filepath.Join(project, "src", "auth", "token.go"), SourceChanged)
	return project, charter
}

// SetTimes sets the modification time of every file under root.
func SetTimes(t testing.TB, root string, at time.Time) {
	t.Helper()
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Touch sets one file's modification time.
func Touch(t testing.TB, path string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}
