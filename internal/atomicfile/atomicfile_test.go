package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

func TestWriteReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := In(dir).Write(p, []byte("new"), 0o600); err != nil {
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

// A symbolic link is neither replaced nor written through: both the link
// and what it points to (outside the folder, here) stay as they were.
func TestWriteRefusesALink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "passwd")
	if err := os.WriteFile(target, []byte("root"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "charter.md")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	// A link to a file inside the folder: a *LinkError.
	inside := filepath.Join(dir, "target.md")
	os.WriteFile(inside, []byte("inside"), 0o644)
	os.Symlink(inside, filepath.Join(dir, "inside.md"))
	err := In(dir).Write(filepath.Join(dir, "inside.md"), []byte("new"), 0o644)
	var le *LinkError
	if !errors.As(err, &le) || le.Target != inside {
		t.Fatalf("err = %v, want a *LinkError naming %s", err, inside)
	}
	// A link out of it: refused as outside, naming the link.
	err = In(dir).Write(link, []byte("new"), 0o644)
	if !errors.Is(err, vfs.ErrOutside) || !strings.Contains(err.Error(), "symbolic link to "+target) {
		t.Fatalf("err = %v, want an *OutsideError naming %s", err, target)
	}
	if got, _ := os.ReadFile(target); string(got) != "root" {
		t.Errorf("the link's target was written: %q", got)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("left behind: %v", names(entries))
	}
}

func TestFailedWriteLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "missing-dir", "f.json")
	if err := In(dir).Write(p, []byte("x"), 0o644); err == nil {
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
	if err := In(dir).Write(target, []byte("new"), 0o644); err == nil {
		t.Fatal("expected failure in read-only dir")
	}
	if got, _ := os.ReadFile(target); string(got) != "old" {
		t.Fatalf("old file changed: %q", got)
	}
}

// When the last step fails (the rename, here), the target keeps its old
// content and no temporary file is left in the folder.
func TestFailedRenameLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "criterion-state.json")
	os.WriteFile(p, []byte("old"), 0o644)
	rename = func(*os.Root, string, string) error { return errors.New("rename failed") }
	defer func() { rename = (*os.Root).Rename }()
	if err := In(dir).Write(p, []byte("new"), 0o644); err == nil {
		t.Fatal("the write succeeded")
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Fatalf("old content changed: %q", got)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("left behind: %v", names(es))
	}
	// The same for a new file whose link fails.
	link = func(*os.Root, string, string) error { return errors.New("link failed") }
	defer func() { link = linkOrRename }()
	if err := In(dir).Create(filepath.Join(dir, "evidence.json"), []byte("{}"), 0o644); err == nil {
		t.Fatal("the create succeeded")
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("left behind: %v", names(es))
	}
}

// Create never replaces a file, and leaves only the new file behind.
func TestCreateIsExclusive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "evidence.json")
	if err := In(dir).Create(p, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := In(dir).Create(p, []byte("second"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want ErrExist", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "first" {
		t.Fatalf("content %q", got)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("left behind: %v", names(es))
	}
}

// A process killed at any point of a write leaves the old content or the
// new one, never an empty or partial file: a child process writes in a
// loop and is killed at random moments; the file is then always whole.
func TestKilledWriterLeavesWholeFile(t *testing.T) {
	if os.Getenv("ATOMICFILE_CHILD") != "" {
		p := os.Getenv("ATOMICFILE_CHILD")
		for i := 0; ; i++ {
			content := bytes.Repeat([]byte{byte('a' + i%26)}, 1<<16)
			if err := In(filepath.Dir(p)).Write(p, content, 0o644); err != nil {
				os.Exit(3)
			}
		}
	}
	if testing.Short() {
		t.Skip("kills child processes")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "evidence.json")
	os.WriteFile(p, bytes.Repeat([]byte("z"), 1<<16), 0o644)
	for round := 0; round < 20; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterLeavesWholeFile$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_CHILD="+p)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let it write a while: until the file has changed at least once.
		deadline := time.Now().Add(10 * time.Second)
		for first, _ := os.ReadFile(p); time.Now().Before(deadline); {
			if cur, _ := os.ReadFile(p); !bytes.Equal(cur, first) {
				break
			}
			runtime.Gosched()
		}
		time.Sleep(time.Duration(rand.IntN(5000)) * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
		got, err := os.ReadFile(p)
		if err != nil || len(got) != 1<<16 || !bytes.Equal(got, bytes.Repeat(got[:1], 1<<16)) {
			t.Fatalf("round %d: after a kill the file is %d bytes (%v)", round, len(got), err)
		}
	}
}

// Every write stays in its folder: a path out of it as written, or through
// a folder linked elsewhere, is refused and nothing is written there; a
// link that stays inside is followed.
func TestWritesStayInTheFolder(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, "real"), 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, ".rp1")); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink("real", filepath.Join(dir, "inner"))
	in := In(dir)
	for _, p := range []string{
		filepath.Join(dir, ".rp1", "charter.md"),
		filepath.Join(dir, ".rp1", "new", "charter.md"),
		filepath.Join(dir, "..", filepath.Base(outside), "charter.md"),
		filepath.Join(outside, "charter.md"),
	} {
		for what, err := range map[string]error{
			"Write":  in.Write(p, []byte("x"), 0o644),
			"Create": in.Create(p, []byte("x"), 0o644),
			"Mkdir":  in.Mkdir(p, 0o755),
			"MkdirAll": func() error {
				_, err := in.MkdirAll(filepath.Join(p, "sub"), 0o755)
				return err
			}(),
		} {
			if !errors.Is(err, vfs.ErrOutside) || !strings.HasPrefix(err.Error(), "refusing to write: ") {
				t.Errorf("%s(%s) = %v, want a refusal", what, p, err)
			}
		}
	}
	if err := in.Write(filepath.Join(dir, ".rp1", "x"), nil, 0o644); err == nil || !strings.Contains(err.Error(), ".rp1 is a symbolic link to "+outside) {
		t.Errorf("the refusal does not name the link: %v", err)
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Fatalf("written outside: %v", names(es))
	}
	created, err := in.MkdirAll(filepath.Join(dir, "inner", "a", "b"), 0o755)
	if err != nil || len(created) != 2 || created[0] != filepath.Join(dir, "inner", "a") {
		t.Fatalf("MkdirAll through a link inside: %v, %v", created, err)
	}
	if err := in.Create(filepath.Join(dir, "inner", "a", "b", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "real", "a", "b", "f")); string(b) != "x" {
		t.Errorf("the write through the inner link is not where it leads: %q", b)
	}
}

// A folder swapped for a link out of the root after the containment check
// cannot carry the write outside: the os.Root resolves each name again and
// refuses the link, whether the swap comes before the temporary file is
// made or just before the rename.
func TestFolderSwappedForALinkAfterTheCheck(t *testing.T) {
	for _, when := range []string{"after the check", "before the rename"} {
		dir, outside := t.TempDir(), t.TempDir()
		sub := filepath.Join(dir, "context")
		os.MkdirAll(sub, 0o755)
		p := filepath.Join(sub, "charter.md")
		os.WriteFile(p, []byte("old"), 0o644)
		os.WriteFile(filepath.Join(outside, "charter.md"), []byte("outside"), 0o644)
		swap := func() {
			if err := os.Rename(sub, sub+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, sub); err != nil {
				t.Skip("no symlinks:", err)
			}
		}
		if when == "after the check" {
			checked = swap
		} else {
			rename = func(r *os.Root, tmp, name string) error {
				swap()
				return r.Rename(tmp, name)
			}
		}
		err := In(dir).Write(p, []byte("new"), 0o644)
		checked, rename = func() {}, (*os.Root).Rename
		if err == nil {
			t.Errorf("%s: the write went through the swapped-in link", when)
		}
		if b, _ := os.ReadFile(filepath.Join(outside, "charter.md")); string(b) != "outside" {
			t.Errorf("%s: the file outside was replaced: %q", when, b)
		}
		if es, _ := os.ReadDir(outside); len(es) != 1 {
			t.Errorf("%s: left outside: %v", when, names(es))
		}
	}
}

func names(es []os.DirEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
