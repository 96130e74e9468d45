package vfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	for i := range 600 { // more than one getdents buffer of names
		write(filepath.Join(root, "a", "many", fmt.Sprintf("%s-%03d", strings.Repeat("n", 40), i)), "")
	}
	os.MkdirAll(filepath.Join(root, "a", "many", "sub"), 0o755)
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
		"a/dir-in", "a/dir-in/file.md", "a/dir-out", "a/dir-out/secret", "a/dir-abs-in/file.md", "a/dangling/x", "a/many"} {
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
		// ReadStat and ReadListed, when they answer, answer as ReadFile
		// and Stat do.
		for how, read := range map[string]func(string) ([]byte, fs.FileInfo, bool){"ReadStat": fast.ReadStat, "ReadListed": fast.ReadListed} {
			if data, info, ok := read(p); ok {
				got := fmt.Sprintf("%q %v", data, error(nil))
				stat := fmt.Sprintf("%s %d %v %v", info.Name(), info.Size(), info.Mode(), info.ModTime().UnixNano())
				if got != want.read || stat != want.stat {
					t.Errorf("%s(%s) = %s, %s; want %s, %s", how, p, got, stat, want.read, want.stat)
				}
			}
		}
	}
	if noOpenat2.Load() {
		t.Skip("no openat2 here: only the general path ran")
	}
}

// A file seen listed as a regular file and swapped since for something
// else is not read by ReadListed, which leaves it to the general path: a
// FIFO (no wait for a writer), a link (even one that stays inside the
// root), a file grown over the limit, a folder on the way swapped for a
// link out. A name outside the root is never read, however it is spelt.
func TestReadListedRefusesASwap(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	os.WriteFile(filepath.Join(root, "d", "other"), []byte("other"), 0o644)
	c := &Confined{FS: OS, Roots: func() []string { return []string{root} }}
	p := filepath.Join(root, "d", "f")
	listed := func() {
		t.Helper()
		os.RemoveAll(p)
		if err := os.WriteFile(p, []byte("listed"), 0o644); err != nil {
			t.Fatal(err)
		}
		es, err := c.ReadDir(filepath.Join(root, "d"))
		if err != nil || len(es) != 2 || es[0].Name() != "f" || !es[0].Type().IsRegular() {
			t.Fatalf("listing: %v, %v", es, err)
		}
		if b, _, ok := c.ReadListed(p); !ok || string(b) != "listed" {
			t.Fatalf("ReadListed of the listed file = %q, %v", b, ok)
		}
	}
	refused := func(what string) {
		t.Helper()
		type answer struct {
			data []byte
			ok   bool
		}
		got := make(chan answer, 1)
		go func() {
			b, _, ok := c.ReadListed(p)
			got <- answer{b, ok}
		}()
		select {
		case a := <-got:
			if a.ok || a.data != nil {
				t.Errorf("%s: ReadListed = %q, %v; want it left to the general path", what, a.data, a.ok)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadListed waits", what)
		}
	}

	listed()
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	refused("a FIFO swapped in")
	if _, err := c.ReadFile(p); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile of the FIFO = %v, want ErrNotRegular", err)
	}

	listed()
	os.Remove(p)
	if err := os.Symlink("other", p); err != nil {
		t.Skip("no symlinks:", err)
	}
	refused("a link inside the root swapped in")

	listed()
	os.Remove(p)
	os.Symlink(filepath.Join(outside, "secret"), p)
	refused("a link out swapped in")
	if b, err := c.ReadFile(p); err == nil || string(b) == "secret" {
		t.Errorf("ReadFile of the link out = %q, %v", b, err)
	}

	listed()
	if err := os.Truncate(p, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	refused("a file grown over the limit")
	if _, err := c.ReadFile(p); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("ReadFile of the grown file = %v, want a *TooLargeError", err)
	}

	listed()
	os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d.moved"))
	os.WriteFile(filepath.Join(outside, "f"), []byte("secret"), 0o644)
	os.Symlink(outside, filepath.Join(root, "d"))
	refused("its folder swapped for a link out")
	os.Remove(filepath.Join(root, "d"))
	os.Rename(filepath.Join(root, "d.moved"), filepath.Join(root, "d"))

	for _, name := range []string{
		filepath.Join(outside, "secret"),
		filepath.Join(root, "..", filepath.Base(outside), "secret"),
		root + "/d/../../" + filepath.Base(outside) + "/secret",
	} {
		if b, _, ok := c.ReadListed(name); ok || b != nil {
			t.Errorf("ReadListed(%s) = %q, %v: outside the root", name, b, ok)
		}
	}
}

// ReadListed makes four system calls for a small file (openat2, fstat,
// read, close) where the look-first path (ReadStat) makes seven: the
// folder opened, the look (fstatat), the open, fstat, read and two
// closes. Counted by strace where it can run.
func TestReadListedSystemCalls(t *testing.T) {
	const files = 20
	if dir := os.Getenv("VFS_SYSCALL_CHILD"); dir != "" {
		c := &Confined{FS: OS, Roots: func() []string { return []string{dir} }}
		for i := range files {
			p := filepath.Join(dir, "runs", fmt.Sprint(i), "evidence.json")
			var ok bool
			if os.Getenv("VFS_SYSCALL_LISTED") != "" {
				_, _, ok = c.ReadListed(p)
			} else {
				_, _, ok = c.ReadStat(p)
			}
			if !ok {
				t.Fatalf("%s not read", p)
			}
		}
		return
	}
	strace, err := exec.LookPath("strace")
	if err != nil || testing.Short() {
		t.Skip("no strace, or -short")
	}
	dir := t.TempDir()
	for i := range files {
		p := filepath.Join(dir, "runs", fmt.Sprint(i), "evidence.json")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(`{"ok":true}`), 0o644)
	}
	count := func(listed bool) map[string]int {
		out := filepath.Join(t.TempDir(), "trace")
		cmd := exec.Command(strace, "-f", "-qq", "-y", "-o", out, "-e", "trace=openat,openat2,newfstatat,fstat,read,close",
			os.Args[0], "-test.run=^TestReadListedSystemCalls$", "-test.count=1")
		cmd.Env = append(os.Environ(), "VFS_SYSCALL_CHILD="+dir)
		if listed {
			cmd.Env = append(cmd.Env, "VFS_SYSCALL_LISTED=1")
		}
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("strace cannot run here: %v\n%s", err, b)
		}
		trace, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		calls := map[string]int{}
		for _, line := range strings.Split(string(trace), "\n") {
			if !strings.Contains(line, filepath.Join(dir, "runs")) || strings.Contains(line, "resumed>") {
				continue
			}
			_, call, _ := strings.Cut(strings.TrimSpace(line), " ")
			name, _, _ := strings.Cut(strings.TrimSpace(call), "(")
			calls[name]++
		}
		return calls
	}
	if noOpenat2.Load() {
		t.Skip("no openat2 here")
	}
	got, before := count(true), count(false)
	want := map[string]int{"openat2": files, "fstat": files, "read": files, "close": files}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ReadListed made %v for %d files, want %v", got, files, want)
	}
	want = map[string]int{"openat2": files, "newfstatat": files, "openat": files, "fstat": files, "read": files, "close": 2 * files}
	if fmt.Sprint(before) != fmt.Sprint(want) {
		t.Errorf("ReadStat made %v for %d files, want %v", before, files, want)
	}
}
