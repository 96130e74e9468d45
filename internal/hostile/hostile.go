// Package hostile builds repositories made to attack charter-lsp, for the
// tests that prove it safe on any repository. Each git repository here
// would make a careless tool run a program the repository names: the
// program is a script that appends to a marker file, and a test passes
// only if the marker never appears. Builders run the real git CLI (tests
// may run programs; the shipped binary runs none).
package hostile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// Script writes an executable shell script that appends a line to marker
// each time it runs, and returns its path.
func Script(t testing.TB, marker string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts")
	}
	p := filepath.Join(t.TempDir(), "payload.sh")
	src := fmt.Sprintf("#!/bin/sh\necho \"ran $0 $*\" >> '%s'\nexit 1\n", marker)
	if err := os.WriteFile(p, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Ran reports what the payload recorded in marker ("" when it never ran).
func Ran(marker string) string {
	b, _ := os.ReadFile(marker)
	return string(b)
}

// Git runs git in dir for a builder, isolated from the user's and the
// system's configuration, as of 2026-11-12 09:00 UTC, and returns its
// output.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return testfixture.Git(t, dir, "2026-11-12T09:00:00Z", args...)
}

// HaveGit skips the test when there is no git to build repositories with.
func HaveGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// Repo is one hostile repository: Project is the folder holding .pi/ and
// src/, with a .charter-lsp.jsonc that turns on "freshness": "git".
type Repo struct {
	Name    string
	Project string
}

// GitRepos builds every hostile git repository; each names payload as the
// program to run.
func GitRepos(t testing.TB, payload string) []Repo {
	t.Helper()
	HaveGit(t)
	return []Repo{
		{"signature checked by gpg.program (and fsmonitor, pager, textconv, hooks)", Signed(t, payload, "openpgp")},
		{"ssh signature checked by gpg.ssh.program", Signed(t, payload, "ssh")},
		{"partial clone with an ext:: remote", PartialClone(t, payload)},
		{"project folder shaped like a bare repository", BareShaped(t, payload)},
	}
}

// piProject copies the pi-project fixture into dir with a project file
// that turns on git freshness.
func piProject(t testing.TB, dir string) {
	t.Helper()
	src := testfixture.Copy(t, "pi-project")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ".charter-lsp.jsonc"), `{"freshness": "git"}`+"\n")
}

func write(t testing.TB, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// signedCommit writes a commit of the index on HEAD carrying a signature
// of format ("openpgp" or "ssh"), so that `git log --show-signature`
// (log.showSignature) hands it to the configured verification program,
// and moves HEAD to it.
func signedCommit(t testing.TB, gitDir, workTree, format string) {
	t.Helper()
	env := func(args ...string) []string {
		return append([]string{"--git-dir=" + gitDir, "--work-tree=" + workTree}, args...)
	}
	tree := strings.TrimSpace(Git(t, workTree, env("write-tree")...))
	parent := strings.TrimSpace(Git(t, workTree, env("rev-parse", "HEAD")...))
	kind := "PGP"
	if format == "ssh" {
		kind = "SSH"
	}
	commit := fmt.Sprintf("tree %s\nparent %s\nauthor hostile <h@example.com> 1794992400 +0000\ncommitter hostile <h@example.com> 1794992400 +0000\n"+
		"gpgsig -----BEGIN %s SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END %s SIGNATURE-----\n\nsigned change to src\n", tree, parent, kind, kind)
	obj := filepath.Join(t.TempDir(), "commit")
	write(t, obj, commit)
	h := strings.TrimSpace(Git(t, workTree, env("hash-object", "-t", "commit", "-w", obj)...))
	Git(t, workTree, env("update-ref", "HEAD", h)...)
}

// configure sets git configuration keys in the repository at gitDir.
func configure(t testing.TB, gitDir string, kv ...string) {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		Git(t, gitDir, "--git-dir="+gitDir, "config", kv[i], kv[i+1])
	}
}

// runEverything is configuration that names payload for every program git
// may run on its own: signature checks, fsmonitor, pagers, textconv,
// external diff, hooks, ssh and credential helpers.
func runEverything(t testing.TB, gitDir, workTree, payload, format string) {
	t.Helper()
	hooks := filepath.Join(gitDir, "hooks")
	for _, h := range []string{"post-checkout", "post-merge", "pre-commit", "post-commit", "reference-transaction", "post-index-change", "fsmonitor-watchman"} {
		if err := os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\nexec '"+payload+"' hook "+h+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	configure(t, gitDir,
		"log.showSignature", "true",
		"gpg.program", payload,
		"core.fsmonitor", payload,
		"core.pager", payload,
		"pager.log", payload,
		"core.hooksPath", hooks,
		"core.sshCommand", payload,
		"credential.helper", "!"+payload,
		"diff.external", payload,
		"diff.evil.textconv", payload,
		"core.alternateRefsCommand", payload,
	)
	if format == "ssh" {
		allowed := filepath.Join(gitDir, "allowed_signers")
		write(t, allowed, "")
		configure(t, gitDir, "gpg.format", "ssh", "gpg.ssh.program", payload, "gpg.ssh.allowedSignersFile", allowed)
	}
	write(t, filepath.Join(workTree, ".gitattributes"), "* diff=evil\n")
}

// Signed is a repository whose newest change to src/ is a signed commit,
// with log.showSignature on and the verification program (gpg.program, or
// gpg.ssh.program for format "ssh") set to payload, plus every other
// program git may run on its own.
func Signed(t testing.TB, payload, format string) string {
	t.Helper()
	project := t.TempDir()
	piProject(t, project)
	Git(t, project, "init", "-q")
	Git(t, project, "add", "-A")
	Git(t, project, "commit", "-qm", "charter")
	write(t, filepath.Join(project, "src", "auth", "rotate.go"), "package auth\n")
	Git(t, project, "add", "-A")
	gitDir := filepath.Join(project, ".git")
	signedCommit(t, gitDir, project, format)
	runEverything(t, gitDir, project, payload, format)
	return project
}

// PartialClone is a treeless partial clone (--filter=tree:0) whose promisor
// remote is an ext:: URL running payload: any command that needs an old
// tree (git log -- src walking history) fetches it lazily by running the
// remote's command.
func PartialClone(t testing.TB, payload string) string {
	t.Helper()
	origin := t.TempDir()
	piProject(t, origin)
	Git(t, origin, "init", "-q")
	Git(t, origin, "add", "-A")
	Git(t, origin, "commit", "-qm", "charter")
	write(t, filepath.Join(origin, "src", "auth", "rotate.go"), "package auth\n")
	Git(t, origin, "add", "-A")
	Git(t, origin, "commit", "-qm", "rotate")
	write(t, filepath.Join(origin, "README.md"), "# Project\n")
	Git(t, origin, "add", "-A")
	Git(t, origin, "commit", "-qm", "readme")
	Git(t, origin, "config", "uploadpack.allowFilter", "true")
	parent := t.TempDir()
	Git(t, parent, "clone", "-q", "--no-local", "--filter=tree:0", "file://"+filepath.ToSlash(origin), "project")
	project := filepath.Join(parent, "project")
	configure(t, filepath.Join(project, ".git"),
		"remote.origin.url", "ext::"+payload+" %S",
		"protocol.ext.allow", "always")
	return project
}

// BareShaped is a project folder that is itself shaped like a bare
// repository — HEAD, config, objects/ and refs/ at its top, committed as
// ordinary files of an outer repository, so they survive a clone. Git run
// in that folder takes it for a repository and obeys its config (a signed
// HEAD and gpg.program = payload).
func BareShaped(t testing.TB, payload string) string {
	t.Helper()
	outer := t.TempDir()
	Git(t, outer, "init", "-q")
	project := filepath.Join(outer, "app")
	piProject(t, project)
	// Build the bare repository in place: its own history of src/.
	scratch := t.TempDir()
	Git(t, scratch, "init", "-q", "--bare", project)
	Git(t, project, "--git-dir="+project, "--work-tree="+project, "add", "src")
	Git(t, project, "--git-dir="+project, "--work-tree="+project, "commit", "-qm", "src")
	write(t, filepath.Join(project, "src", "auth", "rotate.go"), "package auth\n")
	Git(t, project, "--git-dir="+project, "--work-tree="+project, "add", "src")
	signedCommit(t, project, project, "openpgp")
	configure(t, project, "log.showSignature", "true", "gpg.program", payload, "core.fsmonitor", payload)
	Git(t, outer, "add", "-A")
	Git(t, outer, "commit", "-qm", "a project folder that looks like a bare repository")
	// A later change to src/ alone: the charter's evidence, committed
	// before it, is stale (evidence committed with a change is not).
	write(t, filepath.Join(project, "src", "auth", "later.go"), "package auth\n")
	Git(t, outer, "add", "-A")
	Git(t, outer, "commit", "-qm", "a later change to src")
	return project
}

// Forged are texts a repository puts in folder names, titles and
// objectives to take over a line of output: a line break (LF, a lone CR,
// U+2028) followed by a GitHub Actions workflow command (the runner executes
// one from any line of a step's output, leading white space ignored), the
// older "##[command]" and Azure Pipelines' "##vso[…]" (read anywhere in a
// line), a bidirectional override that shows "txt.exe" as "exe.txt", and
// terminal escape sequences (OSC title, clear screen, 8-bit CSI).
var Forged = []string{
	"\n::warning file=README.md::forged",
	"\n::stop-commands::tok",
	"\r::error::carriage return",
	"\u2028::notice::line separator",
	"##[error]legacy command",
	"##vso[task.setvariable variable=x]y",
	"txt.\u202eexe \u2066\u2067\u2068\u2069\u061c\u200e\u200f\u202a\u202b\u202c\u202d",
	"\x1b]0;title\x07\x1b[2J\u009b2J\x7f",
}

// ForgedOutput builds a project whose every name and title the outputs
// show carries the Forged texts: a .charters/ folder named as issue 20
// found it (`20260101-000000-a` + LF + `::warning …`) with its charter's
// criteria titled and its objective starting with a command; a pi charter
// whose folder, name, objective and VAL titles hold them; and an rp1
// charter in a folder named with them. It returns the project folder.
func ForgedOutput(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	all := strings.Join(Forged, " ")

	charters := filepath.Join(root, ".charters", "20260101-000000-a\n::warning file=README.md::forged")
	write(t, filepath.Join(charters, "state.json"), fmt.Sprintf(`{
  "charterId": "20260101-000000-a",
  "schemaVersion": "file-interface",
  "objective": %q,
  "status": "active",
  "createdAt": "2026-07-10T08:30:00.000Z",
  "updatedAt": "2026-07-16T17:45:00.000Z",
  "nextSeq": 1,
  "latestSourceSeq": 0,
  "snapshotHash": "",
  "criteriaSnapshot": []
}
`, "::error::objective "+all))
	var b strings.Builder
	b.WriteString("# Charter: forged\n\n## Objective\n\n::error::objective line\n\n## Criteria\n\n")
	for i, f := range Forged {
		fmt.Fprintf(&b, "### C%d. Criterion %s\nStatus: pending — note %s\n\n", i+1, strings.ReplaceAll(f, "\n", " "), strings.ReplaceAll(f, "\n", " "))
	}
	write(t, filepath.Join(charters, "charter.md"), b.String())
	write(t, filepath.Join(charters, "events.jsonl"), "")

	pi := filepath.Join(root, ".pi", "charters", "auth\u202eexe.txt\r::error::cr")
	src := testfixture.Copy(t, "pi-project")
	if err := os.CopyFS(pi, os.DirFS(filepath.Join(src, ".pi", "charters", "auth-rework"))); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	b.WriteString("# Criteria\n\n## m1-forged ::error::milestone " + strings.ReplaceAll(all, "\n", " ") + "\n\n")
	for i, f := range Forged {
		fmt.Fprintf(&b, "### VAL-FORGE-%03d — %s\nVerifier: manual\n\n", i+1, strings.ReplaceAll(f, "\n", " "))
	}
	write(t, filepath.Join(pi, "criteria.md"), b.String())
	write(t, filepath.Join(pi, "charter.md"), "# Charter: ::error::name\n\n## Objective\n\n::error::objective "+strings.ReplaceAll(all, "\n", " ")+"\n")

	rp1 := filepath.Join(root, "proj\n::error::rp1 "+Forged[4]+" "+Forged[6], ".rp1", "context", "charter.md")
	write(t, rp1, "# Project Charter: "+strings.ReplaceAll(all, "\n", " ")+"\n\n## Problem\n\n::error::problem\n")
	return root
}

// CheckOurs fails the test for what in out (an output, called name) is not
// ours: a raw control, bidirectional or line-separator character (but line
// ends, and with color the ESC of our SGR colours), a carriage return
// inside a line, or a line a CI runner reads as a command — "::" first
// after white space (unless commands: out is --format github's, every line
// one of our workflow commands), "##[" or "##vso[" anywhere.
func CheckOurs(t testing.TB, name, out string, commands, color bool) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && r != '\r' && (r != '\x1b' || !color) && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029') {
			t.Errorf("%s holds a raw %U:\n%s", name, r, out)
			break
		}
	}
	if color {
		if rest := sgr.ReplaceAllString(out, ""); strings.ContainsRune(rest, '\x1b') {
			t.Errorf("%s holds an escape sequence that is not one of our colours:\n%q", name, out)
		}
		out = sgr.ReplaceAllString(out, "")
	}
	for _, line := range strings.SplitAfter(out, "\n") {
		body := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if strings.ContainsRune(body, '\r') {
			t.Errorf("%s: a carriage return inside a line (the runner starts a line there): %q", name, line)
		}
		trimmed := strings.TrimLeftFunc(body, unicode.IsSpace)
		switch {
		case commands && trimmed != "" && !strings.HasPrefix(trimmed, "::error ") && !strings.HasPrefix(trimmed, "::warning ") && !strings.HasPrefix(trimmed, "::notice "):
			t.Errorf("%s: not one of our workflow commands: %q", name, line)
		case !commands && strings.HasPrefix(trimmed, "::"):
			t.Errorf("%s: a forged workflow command: %q", name, line)
		case !commands && (strings.Contains(body, "##[") || strings.Contains(body, "##vso[")):
			t.Errorf("%s: a forged ##[…] command: %q", name, line)
		}
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")
