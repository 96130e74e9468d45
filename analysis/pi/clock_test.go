package pi

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// A source folder that is a link out of the project is not walked: src ->
// / costs no read at all, and a newer file behind a link elsewhere does
// not date the project.
func TestMtimeClockStaysInTheProject(t *testing.T) {
	project := t.TempDir()
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "new.go"), "x")
	if err := os.Symlink("/", filepath.Join(project, "src")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	os.Symlink(outside, filepath.Join(project, "lib"))
	counting := &countingFS{FS: vfs.OS}
	if _, ok := (MtimeClock{FS: counting, Dirs: []string{"src", "lib"}}).Newest(project); ok {
		t.Error("a source folder linked out of the project dated it")
	}
	if n := counting.reads.Load(); n != 0 {
		t.Errorf("%d reads for source folders linked out of the project, want none", n)
	}
	// Near miss: a link that stays in the project is followed.
	mustWrite(t, filepath.Join(project, "real", "a.go"), "x")
	os.Symlink(filepath.Join(project, "real"), filepath.Join(project, "app"))
	if c, ok := (MtimeClock{FS: vfs.OS, Dirs: []string{"app"}}).Newest(project); !ok || filepath.Base(c.Path) != "a.go" {
		t.Errorf("a source folder linked inside the project: %s %v", c.Path, ok)
	}
}

// A walk stops after MaxEntries entries.
func TestMtimeClockBudget(t *testing.T) {
	project := t.TempDir()
	for i := 0; i < 50; i++ {
		mustWrite(t, filepath.Join(project, "src", "d", string(rune('a'+i%26))+string(rune('a'+i/26))+".go"), "x")
	}
	counting := &countingFS{FS: vfs.OS}
	(MtimeClock{FS: counting, Dirs: []string{"src"}, MaxEntries: 10}).Newest(project)
	if n := counting.stats.Load(); n > 10 {
		t.Errorf("%d files looked at with a budget of 10 entries", n)
	}
}

// The git clock reads no program's output: outside a repository it falls
// back to the mtime rule.
func TestGitClockOutsideARepository(t *testing.T) {
	project := t.TempDir()
	p := filepath.Join(project, "src", "a.go")
	mustWrite(t, p, "x")
	if got, ok := NewSourceClock("git", vfs.OS, nil).Newest(project); !ok || got.Path != p {
		t.Errorf("outside a repository: %s %v, want the mtime answer %s", got.Path, ok, p)
	}
}

type countingFS struct {
	vfs.FS
	reads, stats atomic.Int32
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.reads.Add(1)
	return c.FS.ReadDir(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	c.stats.Add(1)
	return c.FS.Stat(name)
}
