package gitlog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/internal/hostile"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// Each hostile repository makes git itself run the payload (checked first,
// so the repository is known to be a real attack), and LastChange on it
// never does.
func TestHostileRepositoriesRunNothing(t *testing.T) {
	hostile.HaveGit(t)
	marker := filepath.Join(t.TempDir(), "ran")
	payload := hostile.Script(t, marker)
	for _, r := range hostile.GitRepos(t, payload) {
		t.Run(r.Name, func(t *testing.T) {
			os.Remove(marker)
			gitLog(r.Project, "src") // what the clock used to run
			if hostile.Ran(marker) == "" {
				t.Fatalf("git itself did not run the payload: the repository is no attack")
			}
			os.Remove(marker)
			c, err := gitlog.LastChange(t.Context(), r.Project, []string{"src"}, gitlog.Limits{})
			t.Logf("LastChange: %+v, %v", c, err)
			if ran := hostile.Ran(marker); ran != "" {
				t.Fatalf("LastChange ran the payload: %s", ran)
			}
		})
	}
}

// On repositories that attack nobody, LastChange says what `git log -1
// --format=%cI --name-only -- <dirs>` says: merges, renames, deletions,
// files where folders were, several folders, nested folders, a shallow
// clone.
func TestAgreesWithGitLog(t *testing.T) {
	hostile.HaveGit(t)
	dir := t.TempDir()
	g := func(date string, args ...string) {
		t.Helper()
		testfixture.Git(t, dir, date, args...)
	}
	put := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	commit := func(date, msg string) {
		g(date, "add", "-A")
		g(date, "commit", "-qm", msg, "--allow-empty")
	}
	check := func(name string, dirs ...string) {
		t.Helper()
		want := gitLog(dir, dirs...)
		c, err := gitlog.LastChange(t.Context(), dir, dirs, gitlog.Limits{})
		got := ""
		if err == nil {
			rel := ""
			if c.Path != "" {
				rel, _ = filepath.Rel(dir, c.Path)
			}
			got = c.Time.Format(time.RFC3339) + "\n" + filepath.ToSlash(rel)
		} else if !errors.Is(err, gitlog.ErrNoChange) {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.TrimSpace(got) != strings.TrimSpace(want) {
			t.Errorf("%s %v:\n got %q\nwant %q", name, dirs, got, want)
		}
	}

	g("2026-01-01T00:00:00Z", "init", "-q", "-b", "main")
	put("README.md", "x")
	commit("2026-01-01T00:00:00Z", "no sources yet")
	check("no folder yet", "src")
	put("src/b/z.go", "1")
	put("src/a.go", "1")
	commit("2026-01-02T00:00:00Z", "add src")
	put("README.md", "y")
	commit("2026-01-03T00:00:00Z", "docs only")
	check("later commit elsewhere", "src")
	g("2026-01-04T00:00:00Z", "checkout", "-qb", "side")
	put("src/b/y.go", "side")
	commit("2026-01-04T00:00:00Z", "side change")
	g("2026-01-05T00:00:00Z", "checkout", "-q", "main")
	put("lib/l.go", "1")
	commit("2026-01-05T00:00:00Z", "lib")
	g("2026-01-06T00:00:00Z", "merge", "-q", "--no-ff", "-m", "merge side", "side")
	check("merge of a side change", "src")
	check("several folders", "src", "lib")
	check("nested folder", "src/b")
	g("2026-01-07T00:00:00Z", "mv", "src/a.go", "src/c.go")
	commit("2026-01-07T00:00:00Z", "rename")
	check("rename", "src")
	g("2026-01-08T00:00:00Z", "rm", "-q", "src/b/z.go")
	commit("2026-01-08T00:00:00Z", "delete")
	check("deletion", "src/b")
	check("missing folder", "nothing-here")
	put("docs", "a file where a folder is named")
	commit("2026-01-09T00:00:00Z", "file named docs")
	check("a file named like the folder", "docs")
	g("2026-01-10T00:00:00Z", "update-index", "--add", "--cacheinfo", "160000,1234567890123456789012345678901234567890,src/vendored")
	g("2026-01-10T00:00:00Z", "commit", "-qm", "a submodule")
	check("a submodule (its commit is not here)", "src")
	os.Chmod(filepath.Join(dir, "src", "c.go"), 0o755)
	commit("2026-01-11T00:00:00Z", "executable")
	check("mode change only", "src")

	origin := dir
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(dir), shallow).CombinedOutput(); err != nil {
		t.Fatalf("shallow clone: %v\n%s", err, out)
	}
	dir = shallow
	check("shallow clone", "src")
	// Its one commit is where the history ends: the change found there
	// may be older (Shallow). A deeper clone that reaches the change
	// dates it exactly.
	if c, err := gitlog.LastChange(t.Context(), shallow, []string{"src"}, gitlog.Limits{}); err != nil || !c.Shallow {
		t.Errorf("depth 1: %+v, %v; want Shallow", c, err)
	}
	deeper := filepath.Join(t.TempDir(), "deeper")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "3", "file://"+filepath.ToSlash(origin), deeper).CombinedOutput(); err != nil {
		t.Fatalf("clone --depth 3: %v\n%s", err, out)
	}
	if c, err := gitlog.LastChange(t.Context(), deeper, []string{"src"}, gitlog.Limits{}); err != nil || c.Shallow {
		t.Errorf("depth 3, the change in its history: %+v, %v; want exact", c, err)
	}
}

// A packed history whose trees are stored as deltas, on offsets (git's
// default) and on object ids, chains up to 20 deep: LastChange builds
// each from its chain and agrees with git log.
func TestAgreesWithGitLogOnDeltas(t *testing.T) {
	dir := repoWithSource(t)
	for j := range 40 {
		os.WriteFile(filepath.Join(dir, "src", fmt.Sprintf("f%02d.go", j)), []byte("package src\n"), 0o644)
		os.MkdirAll(filepath.Join(dir, "lib", fmt.Sprintf("d%02d", j)), 0o755)
		os.WriteFile(filepath.Join(dir, "lib", fmt.Sprintf("d%02d", j), "x.go"), []byte("package lib\n"), 0o644)
	}
	hostile.Git(t, dir, "add", "-A")
	hostile.Git(t, dir, "commit", "-qm", "wide folders")
	for i := range 30 {
		folder := map[bool]string{true: "src", false: "lib"}[i%3 != 0]
		p := filepath.Join(dir, "src", fmt.Sprintf("f%02d.go", i))
		if folder == "lib" {
			p = filepath.Join(dir, "lib", fmt.Sprintf("d%02d", i), "x.go")
		}
		os.WriteFile(p, []byte(fmt.Sprintf("package %s // %d\n", folder, i)), 0o644)
		date := fmt.Sprintf("2026-02-01T00:%02d:00Z", i)
		testfixture.Git(t, dir, date, "add", "-A")
		testfixture.Git(t, dir, date, "commit", "-qm", "change")
	}
	for _, ofs := range []string{"true", "false"} {
		hostile.Git(t, dir, "-c", "repack.useDeltaBaseOffset="+ofs, "repack", "-adfq", "--depth=20", "--window=50")
		packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
		if !strings.Contains(hostile.Git(t, dir, append([]string{"verify-pack", "-v"}, packs...)...), "chain length = 5") {
			t.Fatal("the pack holds no delta chains: the test tests nothing")
		}
		for _, dirs := range [][]string{{"src"}, {"lib"}, {"lib/d03"}, {"src", "lib"}} {
			want := gitLog(dir, dirs...)
			c, err := gitlog.LastChange(t.Context(), dir, dirs, gitlog.Limits{})
			if err != nil {
				t.Fatalf("deltas on offsets %s, %v: %v", ofs, dirs, err)
			}
			rel, _ := filepath.Rel(dir, c.Path)
			if got := c.Time.UTC().Format(time.RFC3339) + "\n" + filepath.ToSlash(rel); got != want {
				t.Errorf("deltas on offsets %s, %v:\n got %q\nwant %q", ofs, dirs, got, want)
			}
		}
	}
}

// repoWithSource is a new repository whose one commit adds src/a.go.
func repoWithSource(t *testing.T) string {
	t.Helper()
	hostile.HaveGit(t)
	dir := t.TempDir()
	hostile.Git(t, dir, "init", "-q")
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("x"), 0o644)
	hostile.Git(t, dir, "add", "-A")
	hostile.Git(t, dir, "commit", "-qm", "src")
	return dir
}

// A history longer than the budget is given up on, not walked to the end;
// so is a read that takes longer than the deadline.
func TestBudget(t *testing.T) {
	dir := repoWithSource(t)
	for i := 0; i < 30; i++ {
		hostile.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "empty")
	}
	if _, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{Commits: 10}); !errors.Is(err, gitlog.ErrBudget) {
		t.Errorf("10-commit budget over 31 commits: %v, want ErrBudget", err)
	}
	if _, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{Commits: 100}); err != nil {
		t.Errorf("within the budget: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := gitlog.LastChange(ctx, dir, []string{"src"}, gitlog.Limits{}); !errors.Is(err, gitlog.ErrBudget) {
		t.Errorf("cancelled: %v, want ErrBudget", err)
	}
	// Past the deadline, by the clock (its timer need not have fired), and
	// said so: the caller tells a slow moment from a history too large.
	if _, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{Timeout: time.Nanosecond}); !errors.Is(err, gitlog.ErrBudget) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("past the deadline: %v, want ErrBudget and context.DeadlineExceeded", err)
	}
	if _, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{Commits: 10}); errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("over the commit budget: %v, not a deadline", err)
	}
}

// A FIFO or a device inside .git (HEAD, packed-refs, a pack) is refused,
// never opened for a read that waits; a .git that is a FIFO is no
// repository.
func TestNonRegularFilesInGitDir(t *testing.T) {
	hostile.HaveGit(t)
	for _, name := range []string{"HEAD", "packed-refs", "config"} {
		t.Run(name, func(t *testing.T) {
			dir := repoWithSource(t)
			hostile.Git(t, dir, "pack-refs", "--all")
			p := filepath.Join(dir, ".git", name)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			_, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{})
			t.Logf("%s as a FIFO: %v", name, err)
		})
	}
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".git"), 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := gitlog.LastChange(t.Context(), dir, []string{"src"}, gitlog.Limits{}); err == nil {
		t.Error("a .git FIFO gave an answer")
	}
}

// gitLog is what the git freshness clock used to run.
func gitLog(dir string, dirs ...string) string {
	cmd := exec.Command("git", append([]string{"log", "-1", "--format=%cI", "--name-only", "--"}, dirs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, _ := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339, lines[0])
	if err != nil {
		return ""
	}
	first := ""
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			first = l
			break
		}
	}
	return t.UTC().Format(time.RFC3339) + "\n" + first
}

// Committed reads every index version git writes (2; 3 with extended
// flags: an intent-to-add entry; 4 with names stored as changes of the
// previous one), past an entry whose name is longer than the 12 bits of
// its length field: a clean file is committed, an edited one is not, and
// of a file the index does not hold git cannot tell.
func TestCommittedReadsEveryIndexVersion(t *testing.T) {
	dir := repoWithSource(t)
	os.WriteFile(filepath.Join(dir, "src", "b.go"), []byte("b"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "new.go"), []byte("new"), 0o644)
	hostile.Git(t, dir, "add", "src/b.go")
	hostile.Git(t, dir, "commit", "-qm", "b")
	hostile.Git(t, dir, "add", "-N", "src/new.go")
	blob := strings.TrimSpace(hostile.Git(t, dir, "hash-object", "-w", "src/a.go"))
	long := "src/" + strings.Repeat("n", 4092) // 4096 bytes: PATH_MAX
	hostile.Git(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
	for _, version := range []string{"3", "4"} { // intent-to-add needs extended flags: 3 at least
		hostile.Git(t, dir, "update-index", "--index-version", version)
		for _, c := range []struct {
			file, content string
			same, known   bool
		}{
			{"src/a.go", "x", true, true},
			{"src/b.go", "b", true, true},
			{"src/b.go", "edited", false, true},
			{"src/new.go", "new", false, true},
			{"src/untracked.go", "u", false, false},
		} {
			same, known := gitlog.Committed(t.Context(), filepath.Join(dir, c.file), []byte(c.content))
			if same != c.same || known != c.known {
				t.Errorf("index version %s, %s %q: same %v known %v, want %v %v", version, c.file, c.content, same, known, c.same, c.known)
			}
		}
	}
	// Version 2: without the intent-to-add entry.
	hostile.Git(t, dir, "rm", "-q", "--cached", "src/new.go")
	hostile.Git(t, dir, "update-index", "--index-version", "2")
	if same, known := gitlog.Committed(t.Context(), filepath.Join(dir, "src", "b.go"), []byte("b")); !same || !known {
		t.Errorf("index version 2: same %v known %v", same, known)
	}
}

// A .git that leads to another repository — a gitdir: file naming it, or
// naming another work tree's git directory, a .git folder whose commondir
// names it, a .git link to it — is no repository of this work tree: its
// history never dates these sources (git follows each, and a repository
// handed over as a folder or an archive can hold any of them). A linked
// work tree and a submodule, whose git directories name them back, are
// read.
func TestGitDirOfAnotherRepository(t *testing.T) {
	other := repoWithSource(t)
	elsewhere := filepath.Join(t.TempDir(), "wt")
	hostile.Git(t, other, "worktree", "add", "-q", elsewhere)
	otherGit := filepath.Join(other, ".git")
	attacks := map[string]func(project string){
		"gitdir: names another repository": func(p string) {
			os.WriteFile(filepath.Join(p, ".git"), []byte("gitdir: "+otherGit+"\n"), 0o644)
		},
		"gitdir: names another work tree's git directory": func(p string) {
			os.WriteFile(filepath.Join(p, ".git"), []byte("gitdir: "+filepath.Join(otherGit, "worktrees", "wt")+"\n"), 0o644)
		},
		"a .git folder whose commondir names another repository": func(p string) {
			os.MkdirAll(filepath.Join(p, ".git"), 0o755)
			os.WriteFile(filepath.Join(p, ".git", "HEAD"), []byte("ref: refs/heads/master\n"), 0o644)
			os.WriteFile(filepath.Join(p, ".git", "commondir"), []byte(otherGit+"\n"), 0o644)
		},
		"a .git link to another repository": func(p string) {
			if err := os.Symlink(otherGit, filepath.Join(p, ".git")); err != nil {
				t.Skip(err)
			}
		},
	}
	for name, attack := range attacks {
		t.Run(name, func(t *testing.T) {
			project := t.TempDir()
			os.MkdirAll(filepath.Join(project, "src"), 0o755)
			os.WriteFile(filepath.Join(project, "src", "a.go"), []byte("x"), 0o644)
			attack(project)
			if c, err := gitlog.LastChange(t.Context(), project, []string{"src"}, gitlog.Limits{}); !errors.Is(err, gitlog.ErrNoRepository) {
				t.Errorf("LastChange: %+v, %v; want ErrNoRepository", c, err)
			}
			if _, known := gitlog.Committed(t.Context(), filepath.Join(project, "src", "a.go"), []byte("x")); known {
				t.Error("Committed answered from another repository")
			}
		})
	}

	t.Run("a linked work tree", func(t *testing.T) {
		if c, err := gitlog.LastChange(t.Context(), elsewhere, []string{"src"}, gitlog.Limits{}); err != nil || c.Path != filepath.Join(elsewhere, "src", "a.go") {
			t.Errorf("LastChange: %+v, %v", c, err)
		}
		if same, known := gitlog.Committed(t.Context(), filepath.Join(elsewhere, "src", "a.go"), []byte("x")); !same || !known {
			t.Errorf("Committed: same %v known %v", same, known)
		}
	})
	t.Run("a submodule", func(t *testing.T) {
		super := t.TempDir()
		hostile.Git(t, super, "init", "-q")
		hostile.Git(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", other, "sub")
		sub := filepath.Join(super, "sub")
		if data, _ := os.ReadFile(filepath.Join(sub, ".git")); !strings.HasPrefix(string(data), "gitdir: ") {
			t.Fatalf("the submodule has no .git file: %q", data)
		}
		if c, err := gitlog.LastChange(t.Context(), sub, []string{"src"}, gitlog.Limits{}); err != nil || c.Path != filepath.Join(sub, "src", "a.go") {
			t.Errorf("LastChange: %+v, %v", c, err)
		}
	})
}
