package vfs

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The fast path (openat2) answers exactly as the general path (an
// os.Root) does: the same bytes, the same errors, the same stats and
// listings, for every kind of thing a workspace can hold where a file is
// asked for — links that stay inside or lead out, absolute or relative,
// dangling or looping, FIFOs, folders, missing names and folders, files
// over the limit.
func TestConfinedFastPathAgrees(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "secret"), "secret")
	write(filepath.Join(root, "a", "b", "file.md"), "inside")
	write(filepath.Join(root, "a", "empty"), "")
	os.MkdirAll(filepath.Join(root, "a", "dir"), 0o755)
	big := filepath.Join(root, "a", "big")
	if f, err := os.Create(big); err == nil {
		f.Truncate(MaxFileSize + 1)
		f.Close()
	}
	if err := syscall.Mkfifo(filepath.Join(root, "a", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"a/rel-in":     "b/file.md",
		"a/abs-in":     filepath.Join(root, "a", "b", "file.md"),
		"a/rel-out":    "../../" + filepath.Base(outside) + "/secret",
		"a/abs-out":    filepath.Join(outside, "secret"),
		"a/dangling":   "nowhere",
		"a/loop":       "loop",
		"a/dir-in":     "b",
		"a/dir-out":    outside,
		"a/dir-abs-in": filepath.Join(root, "a", "b"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	var paths []string
	for _, rel := range []string{"", "a", "a/b", "a/b/file.md", "a/empty", "a/dir", "a/big", "a/fifo", "a/missing",
		"a/missing-dir/x", "a/b/file.md/x", "a/rel-in", "a/abs-in", "a/rel-out", "a/abs-out", "a/dangling", "a/loop",
		"a/dir-in", "a/dir-in/file.md", "a/dir-out", "a/dir-out/secret", "a/dir-abs-in/file.md", "a/dangling/x"} {
		paths = append(paths, filepath.Join(root, filepath.FromSlash(rel)))
	}
	paths = append(paths, filepath.Join(outside, "secret"), filepath.Dir(root))

	type answer struct{ read, stat, list string }
	var fast, general *Confined
	fifo := filepath.Join(root, "a", "fifo")
	ask := func(c *Confined, p string) answer {
		var a answer
		b, err := c.ReadFile(p)
		a.read = fmt.Sprintf("%q %v", b, err)
		if fi, err := c.Stat(p); err != nil {
			a.stat = err.Error()
		} else {
			a.stat = fmt.Sprintf("%s %d %v %v", fi.Name(), fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		}
		if p == fifo && c == general {
			// The general path opens what it lists, and a FIFO's open
			// waits for a writer: the fast path says what it is instead.
			a.list = "readdir " + fifo + ": not a directory"
			return a
		}
		es, err := c.ReadDir(p)
		var names bytes.Buffer
		for _, e := range es {
			fmt.Fprintf(&names, "%s:%v ", e.Name(), e.Type())
		}
		a.list = fmt.Sprintf("%s%v", names.String(), err)
		return a
	}
	fast = &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	general = &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	for _, p := range paths {
		want := func() answer {
			noOpenat2.Store(true)
			defer noOpenat2.Store(false)
			return ask(general, p)
		}()
		if got := ask(fast, p); got != want {
			t.Errorf("%s:\n fast    %+v\n general %+v", p, got, want)
		}
		// ReadStat, when it answers, answers as ReadFile and Stat do.
		if data, info, ok := fast.ReadStat(p); ok {
			got := fmt.Sprintf("%q %v", data, error(nil))
			stat := fmt.Sprintf("%s %d %v %v", info.Name(), info.Size(), info.Mode(), info.ModTime().UnixNano())
			if got != want.read || stat != want.stat {
				t.Errorf("ReadStat(%s) = %s, %s; want %s, %s", p, got, stat, want.read, want.stat)
			}
		}
	}
	if noOpenat2.Load() {
		t.Skip("no openat2 here: only the general path ran")
	}
}

// A stat kept by a cache is 48 bytes besides its name, and still tells
// two files apart by their identity.
func TestInfoKeepsIdentity(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("x"), 0o644)
	os.WriteFile(b, []byte("x"), 0o644)
	c := &Confined{FS: OS, Roots: func() []string { return []string{dir} }}
	fa, _ := c.Stat(a)
	fb, _ := c.Stat(b)
	osa, _ := os.Stat(a)
	if _, ok := fa.(*Info); !ok && !noOpenat2.Load() {
		t.Fatalf("Stat = %T, want *Info", fa)
	}
	if !SameFile(fa, osa) || SameFile(fa, fb) || !SameFile(Compact("a", osa), fa) {
		t.Error("SameFile does not tell the files apart by identity")
	}
	if ci := Compact("a", osa); ci.Size() != 1 || !ci.ModTime().Equal(osa.ModTime()) || ci.Mode() != osa.Mode() || ci.Name() != "a" {
		t.Errorf("Compact = %+v", ci)
	}
	var _ fs.FileInfo = (*Info)(nil)
}
