package vfs

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
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
	}
	// A root given through a link holds what its target holds.
	if !Within(filepath.Join(root, "in"), filepath.Join(root, "a", "b")) {
		t.Error("a root reached through a symlink does not hold its target's files")
	}
}

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
