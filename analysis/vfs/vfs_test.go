package vfs

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// Every kind of non-regular file where a charter file is expected is
// refused at once: reading a FIFO nobody writes to, or /dev/zero, would
// otherwise block or never end.
func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs, device nodes or unix sockets")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "criteria.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	device := filepath.Join(dir, "REPORT.md")
	if err := os.Symlink("/dev/zero", device); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "charter.md")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	folder := filepath.Join(dir, "state.json")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, device, sock, folder} {
		_, err := OS.ReadFile(p)
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: err = %v, want ErrNotRegular", filepath.Base(p), err)
		}
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != p {
			t.Errorf("%s: err = %#v, want a PathError naming the file", filepath.Base(p), err)
		}
	}
}

// A 1 GB sparse file is refused from its size, without reading it; a file
// at the limit is read whole.
func TestReadFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "REPORT.md")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = OS.ReadFile(sparse)
	if size, ok := IsTooLarge(err); !ok || size != 1<<30 {
		t.Fatalf("1 GB file: err = %v, want TooLargeError with its size", err)
	}

	exact := filepath.Join(dir, "exact")
	want := bytes.Repeat([]byte("x"), 100)
	os.WriteFile(exact, want, 0o644)
	got, err := ReadFile(exact, 100)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("file at the limit: %d bytes, %v", len(got), err)
	}
	if _, err := ReadFile(exact, 99); err == nil {
		t.Fatal("file one byte over the limit was read")
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if got, err := ReadFile(empty, 10); err != nil || len(got) != 0 {
		t.Fatalf("empty file: %q, %v", got, err)
	}
	if _, err := OS.ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want ErrNotExist", err)
	}
}

// A file that claims a small size but yields more (a file that grows while
// read; /proc files report size 0) is still cut off at the limit.
func TestReadAtMostBoundsWhatIsRead(t *testing.T) {
	r := bytes.NewReader(bytes.Repeat([]byte("y"), 1000))
	got, err := readAtMost(r, make([]byte, 0, 1), 11)
	if err != nil || len(got) != 11 {
		t.Fatalf("read %d bytes (%v), want 11", len(got), err)
	}
}

func TestWithin(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "in"))
	os.Symlink(filepath.Join(root, "missing"), filepath.Join(root, "dangling"))
	os.Symlink("/", filepath.Join(root, "slash"))
	for _, c := range []struct {
		path string
		want bool
	}{
		{root, true},
		{filepath.Join(root, "a", "b"), true},
		{filepath.Join(root, "a", "new", "file"), true}, // not there yet
		{filepath.Join(root, "in", "b"), true},
		{filepath.Join(root, "out"), false},
		{filepath.Join(root, "out", "new"), false},
		{filepath.Join(root, "slash", "etc"), false},
		{filepath.Join(root, "dangling"), false},
		{filepath.Join(root, "..", filepath.Base(outside)), false},
		{outside, false},
		{"relative/path", false},
	} {
		if got := Within(root, c.path); got != c.want {
			t.Errorf("Within(root, %s) = %v, want %v", c.path, got, c.want)
		}
		if got := WithinListed(listings{FS: OS}, root, c.path); got != c.want {
			t.Errorf("WithinListed(root, %s) = %v, want %v", c.path, got, c.want)
		}
	}
	// The listings answer when they can: a listing that (wrongly) shows
	// the link out as a folder is believed.
	if !WithinListed(listings{FS: OS, folder: "out"}, root, filepath.Join(root, "out")) {
		t.Error("WithinListed did not take the listing's word")
	}
	// A root given through a link holds what its target holds.
	if !Within(filepath.Join(root, "in"), filepath.Join(root, "a", "b")) {
		t.Error("a root reached through a symlink does not hold its target's files")
	}
	// Plain folders below a root are in it however the root is reached; a
	// link at the end of them that leads out is not, nor is anything
	// below a dangling root.
	os.Symlink(outside, filepath.Join(root, "a", "b", "out"))
	for _, c := range []struct {
		root, path string
		want       bool
	}{
		{filepath.Join(root, "in"), filepath.Join(root, "in", "b"), true},
		{filepath.Join(root, "a"), filepath.Join(root, "a", "b", "out"), false},
		{filepath.Join(root, "in"), filepath.Join(root, "in", "b", "out"), false},
		{filepath.Join(root, "dangling"), filepath.Join(root, "dangling", "x"), false},
	} {
		if got := Within(c.root, c.path); got != c.want {
			t.Errorf("Within(%s, %s) = %v, want %v", c.root, c.path, got, c.want)
		}
	}
}

// listings is a file system that holds its listings (ListingHolder), one
// of whose names, folder, it lists as a folder whatever it is.
type listings struct {
	FS
	folder string
}

func (l listings) Holds(dir, name string) (has, known bool) { return false, false }

func (l listings) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := l.FS.ReadDir(name)
	for i, e := range es {
		if e.Name() == l.folder {
			es[i] = fs.FileInfoToDirEntry(folderInfo(e.Name()))
		}
	}
	return es, err
}

type folderInfo string

func (f folderInfo) Name() string       { return string(f) }
func (f folderInfo) Size() int64        { return 0 }
func (f folderInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o755 }
func (f folderInfo) ModTime() time.Time { return time.Time{} }
func (f folderInfo) IsDir() bool        { return true }
func (f folderInfo) Sys() any           { return nil }

func TestConfined(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	os.WriteFile(filepath.Join(root, "own"), []byte("o"), 0o644)
	os.Symlink(outside, filepath.Join(root, "linked"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "secret-link"))
	c := &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	if b, err := c.ReadFile(filepath.Join(root, "own")); err != nil || string(b) != "o" {
		t.Fatalf("own file: %q, %v", b, err)
	}
	if _, err := c.ReadDir(root); err != nil {
		t.Fatalf("the root itself: %v", err)
	}
	for _, p := range []string{
		filepath.Join(outside, "secret"),
		filepath.Join(root, "linked", "secret"),
		filepath.Join(root, "secret-link"),
		filepath.Join(root, "..", filepath.Base(outside), "secret"),
	} {
		if _, err := c.ReadFile(p); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%s) = %v, want ErrOutside", p, err)
		}
		if _, err := c.Stat(p); !errors.Is(err, ErrOutside) {
			t.Errorf("Stat(%s) = %v, want ErrOutside", p, err)
		}
	}
	if _, err := c.ReadDir(filepath.Join(root, "linked")); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadDir of a linked folder = %v, want ErrOutside", err)
	}
	// Answers are remembered until Forget: a folder that becomes a link.
	os.Mkdir(filepath.Join(root, "d"), 0o755)
	if !c.Allows(filepath.Join(root, "d", "x")) {
		t.Fatal("a folder of the root refused")
	}
	os.Remove(filepath.Join(root, "d"))
	os.Symlink(outside, filepath.Join(root, "d"))
	c.Forget()
	if c.Allows(filepath.Join(root, "d", "x")) {
		t.Fatal("a folder that became a link out is still allowed after Forget")
	}
}

// A refusal says which link leads out, so a user can see why; a path
// outside as written is not looked at (LeadsOut is false).
func TestConfinedNamesTheLinkThatLeadsOut(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "credentials"), []byte("secret"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "credentials"), filepath.Join(root, ".charter-lsp.jsonc")); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink(outside, filepath.Join(root, ".rp1"))
	c := &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	for p, want := range map[string]string{
		filepath.Join(root, ".charter-lsp.jsonc"):            ".charter-lsp.jsonc is a symbolic link to " + filepath.Join(outside, "credentials") + ", outside " + root,
		filepath.Join(root, ".rp1", "context", "x.md"):       "x.md is outside " + root + ": " + filepath.Join(root, ".rp1") + " is a symbolic link to " + outside,
		filepath.Join(filepath.Dir(root), "charter.md"):      filepath.Join(filepath.Dir(root), "charter.md") + " is outside " + root,
		filepath.Join(root, "..", "x", ".charter-lsp.jsonc"): "is outside " + root,
	} {
		_, err := c.Stat(p)
		if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), want) {
			t.Errorf("Stat(%s) = %v, want ErrOutside saying %q", p, err, want)
		}
		if got, wantOut := LeadsOut(err), strings.Contains(want, "symbolic link"); got != wantOut {
			t.Errorf("LeadsOut(Stat(%s)) = %v, want %v", p, got, wantOut)
		}
	}
}

// CheckWrite refuses a path out of the root as written or through a link
// that leads out, naming the link; links that stay inside are fine.
// OpenWrite's root and name reach the file the path names.
func TestCheckWriteAndOpenWrite(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, ".pi")); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "in")) // absolute, but inside
	os.Symlink(filepath.Join(outside, "f"), filepath.Join(root, "f-link"))
	for _, c := range []struct {
		path, err string
	}{
		{filepath.Join(root, "a", "b", "f"), ""},
		{filepath.Join(root, "a", "new", "deeper", "f"), ""},
		{filepath.Join(root, "in", "b", "f"), ""},
		{filepath.Join(root, ".pi", "charters", "x", "f"), filepath.Join(root, ".pi") + " is a symbolic link to " + outside},
		{filepath.Join(root, "f-link"), "f-link is a symbolic link to " + filepath.Join(outside, "f") + ", outside " + root},
		{filepath.Join(root, "a", "..", "..", "f"), "is outside " + root},
		{filepath.Join(outside, "f"), filepath.Join(outside, "f") + " is outside " + root},
	} {
		err := CheckWrite(root, c.path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("CheckWrite(%s) = %v, want nil", c.path, err)
		case c.err != "" && (!errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), c.err)):
			t.Errorf("CheckWrite(%s) = %v, want ErrOutside saying %q", c.path, err, c.err)
		}
		r, name, err := OpenWrite(root, c.path)
		if (err == nil) != (c.err == "") {
			t.Errorf("OpenWrite(%s) = %v", c.path, err)
		}
		if err != nil {
			continue
		}
		if err := r.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteFile(name, []byte(c.path), 0o644); err != nil {
			t.Errorf("writing %s as %s in %s: %v", c.path, name, r.Name(), err)
		}
		r.Close()
		if b, _ := os.ReadFile(c.path); string(b) != c.path {
			t.Errorf("OpenWrite(%s) wrote elsewhere (%s in %s)", c.path, name, r.Name())
		}
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Errorf("written outside: %v", es)
	}
	// A root not made yet is opened at its nearest existing ancestor.
	r, name, err := OpenWrite(filepath.Join(root, "new-project"), filepath.Join(root, "new-project", ".rp1", "context", "charter.md"))
	if err != nil || name != filepath.Join("new-project", ".rp1", "context", "charter.md") {
		t.Fatalf("OpenWrite under a missing root = %q, %v", name, err)
	}
	r.Close()
}

// A folder swapped for a link out of the workspace after Confined looked
// at it (its answers are remembered until Forget, as between two file
// events in the server) cannot carry a read outside: the read itself goes
// through an os.Root that refuses the link. A link that stays inside, even
// an absolute one, is still read.
func TestConfinedReadAfterASwap(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	os.WriteFile(filepath.Join(root, "d", "x"), []byte("own"), 0o644)
	os.WriteFile(filepath.Join(outside, "x"), []byte("secret"), 0o644)
	os.MkdirAll(filepath.Join(root, "real"), 0o755)
	os.WriteFile(filepath.Join(root, "real", "x"), []byte("inner"), 0o644)
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "abs-inner")); err != nil {
		t.Skip("no symlinks:", err)
	}
	c := &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	if b, err := c.ReadFile(filepath.Join(root, "abs-inner", "x")); err != nil || string(b) != "inner" {
		t.Fatalf("an absolute link inside: %q, %v", b, err)
	}
	p := filepath.Join(root, "d", "x")
	if b, err := c.ReadFile(p); err != nil || string(b) != "own" {
		t.Fatalf("before the swap: %q, %v", b, err)
	}
	if _, err := c.ReadDir(filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d.moved"))
	os.Symlink(outside, filepath.Join(root, "d"))
	if b, err := c.ReadFile(p); err == nil || string(b) == "secret" {
		t.Errorf("read through the swapped-in link: %q, %v", b, err)
	}
	if fi, err := c.Stat(p); err == nil {
		t.Errorf("stat through the swapped-in link: %v", fi.Size())
	}
	if es, err := c.ReadDir(filepath.Join(root, "d")); err == nil {
		t.Errorf("listed through the swapped-in link: %v", es)
	}
}

// BenchmarkConfined is what reading through the workspace's bounds costs
// against a plain read: the check (remembered) plus the os.Root walk.
func BenchmarkConfined(b *testing.B) {
	root := b.TempDir()
	p := filepath.Join(root, ".pi", "charters", "auth-rework", "criteria.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, bytes.Repeat([]byte("x"), 4096), 0o644)
	c := &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	for _, bm := range []struct {
		name string
		fsys FS
	}{{"os", OS}, {"confined", c}} {
		b.Run("stat/"+bm.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bm.fsys.Stat(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("read/"+bm.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bm.fsys.ReadFile(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Clean, Dir and Join answer what filepath's do, and Clean returns a clean
// path as it is; belowClean, and Below, answer what the relative path says.
func TestCleanDirBelow(t *testing.T) {
	paths := []string{"", ".", "/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/b/..", "/a/b/.",
		"/.pi/charters/x", "/a/..b/c", "/a/b..", "/a/.b", "a/b", "./a", "../a", "/a/b/c.md", "/..", "/.", "/a/.../b", "/...", "/a/.", "/a/.b/..c/",
		"/a/..", "/a/b/../c", "/a/b/./", "/a/b//", "/.a/.", "/a/.../", "/a.", "/a./b", "/x/.git", "/x/..git/y"}
	for _, p := range paths {
		if got, want := Clean(p), filepath.Clean(p); got != want {
			t.Errorf("Clean(%q) = %q, want %q", p, got, want)
		}
		if got, want := Dir(p), filepath.Dir(p); got != want {
			t.Errorf("Dir(%q) = %q, want %q", p, got, want)
		}
		if got, want := isClean(p), filepath.Separator == '/' && filepath.IsAbs(p) && filepath.Clean(p) == p; got != want {
			t.Errorf("isClean(%q) = %v, want %v", p, got, want)
		}
		for _, name := range []string{"", ".", "..", "x", ".pi", "..x", "x/y", "/x", "x/", "x/..", "...", "a b"} {
			if got, want := Join(p, name), filepath.Join(p, name); got != want {
				t.Errorf("Join(%q, %q) = %q, want %q", p, name, got, want)
			}
		}
		for _, q := range paths {
			if filepath.IsAbs(p) && filepath.IsAbs(q) {
				if got, want := belowClean(p, q), belowRel(filepath.Clean(p), filepath.Clean(q)); got != want && isClean(p) && isClean(q) {
					t.Errorf("belowClean(%q, %q) = %v, the relative path says %v", p, q, got, want)
				}
				if got, want := Below(p, q), belowRel(filepath.Clean(p), filepath.Clean(q)); got != want && filepath.Clean(p) == p && filepath.Clean(q) == q {
					t.Errorf("Below(%q, %q) = %v, the relative path says %v", p, q, got, want)
				}
			}
		}
	}
	if p := "/a/b/c"; unsafe.StringData(Clean(p)) != unsafe.StringData(p) {
		t.Error("a clean path was copied")
	}
}

// BenchmarkIsClean measures the test every entry point of the workspace
// makes of a path it is given (most are clean).
func BenchmarkIsClean(b *testing.B) {
	paths := []string{
		"/tmp/mono/packages/pkg-01234/.pi/charters/feature-x/criteria.md",
		"/tmp/mono/packages/pkg-01234/.charters/c-1/evidence/runs/2026-01-01T00-00-00Z/events.jsonl",
		"/tmp/mono/packages/pkg-01234/src/charter.md",
		"/tmp/mono/packages/pkg-01234",
	}
	for b.Loop() {
		for _, p := range paths {
			if !isClean(p) {
				b.Fatal(p)
			}
		}
	}
}
