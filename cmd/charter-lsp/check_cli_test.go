package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

func TestSummaryLine(t *testing.T) {
	for _, tc := range []struct {
		files int
		t     tally
		want  string
	}{
		{1, tally{}, "1 file checked: 0 problems"},
		{3, tally{errors: 1, warnings: 4}, "3 files checked: 1 error, 4 warnings"},
		{2, tally{errors: 2, warnings: 1, info: 1, hints: 3}, "2 files checked: 2 errors, 1 warning, 1 info, 3 hints"},
		{1, tally{warnings: 2, hints: 1}, "1 file checked: 2 warnings, 1 hint"},
		{4, tally{errors: 1, warnings: 3, hints: 2, hidden: tallyHidden{warnings: 3, hints: 2}}, "4 files checked: 1 error (3 warnings, 2 hints not shown: --quiet)"},
		{4, tally{warnings: 1, hidden: tallyHidden{warnings: 1}}, "4 files checked: 0 errors (1 warning not shown: --quiet)"},
	} {
		if got := tc.t.summary(tc.files, false); got != tc.want {
			t.Errorf("summary = %q, want %q", got, tc.want)
		}
	}
}

// check ends with a summary on stderr whose counts are those of the
// diagnostics it printed, for every file it looked at.
func TestCheckSummaryMatchesOutput(t *testing.T) {
	root := testfixture.Copy(t, ".")
	out, errOut, code := cli(t, root, "", "check", "rp1-real")
	if code != 0 || out != "" || errOut != "1 file checked: 0 problems\n" {
		t.Fatalf("clean run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	project, _ := testfixture.PiProject(t)
	out, errOut, code = cli(t, project, "", "check", "--format", "json")
	var ds []jsonDiag
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatal(err)
	}
	var n tally
	files := map[string]bool{}
	for _, d := range ds {
		sev, _ := diag.ParseSeverity(d.Severity)
		n.add(sev, false)
		files[d.File] = true
	}
	// charter.md, criteria.md, REPORT.md, state.json, criterion-state.json
	// and three evidence runs, whether or not they have findings.
	if want := n.summary(8, false) + "\n"; errOut != want || code != 1 {
		t.Errorf("exit %d, summary %q, want %q", code, errOut, want)
	}
	if n.errors == 0 || n.warnings < 2 || len(files) < 4 {
		t.Errorf("the fixture should give errors and warnings in several files: %+v in %d files", n, len(files))
	}
}

// --quiet prints errors only; the warnings still count for --max-warnings,
// which fails the run when they are more than N.
func TestQuietAndMaxWarnings(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	out, errOut, code := cli(t, project, "", "check", "--quiet")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(line, " error ") {
			t.Errorf("--quiet printed %q", line)
		}
	}
	if !strings.Contains(errOut, "not shown: --quiet)") {
		t.Errorf("summary does not say what --quiet hid: %q", errOut)
	}

	root := testfixture.Copy(t, ".")
	const file = "rp1-interview/update-partial.md" // warnings and no error
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 0, ""},
		{[]string{"--max-warnings", "-1"}, 0, ""},
		{[]string{"--max-warnings", "100"}, 0, ""},
		{[]string{"--max-warnings", "0"}, 1, "charter-lsp check: 3 warnings, more than --max-warnings 0 allows"},
		{[]string{"--max-warnings=2", "--quiet"}, 1, "more than --max-warnings 2 allows"},
		{[]string{"--max-warnings", "3"}, 0, ""},
	} {
		_, errOut, code := cli(t, root, "", append([]string{"check", file}, tc.args...)...)
		if code != tc.code || (tc.msg == "") == strings.Contains(errOut, "--max-warnings") || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// --format github prints workflow commands the Actions runner turns into
// annotations; a message or a path can hold nothing that ends the command
// or splits its properties.
func TestGitHubFormat(t *testing.T) {
	var b strings.Builder
	d := diag.Diagnostic{File: "docs/a,b:c.md", Severity: diag.SeverityWarning, Code: diag.MissingBecause,
		Range:   source.Range{Start: source.Position{Line: 2, Character: 4}, End: source.Position{Line: 2, Character: 9}},
		Message: "100% sure\r\nsecond line: yes, really"}
	hint := d
	hint.Severity = diag.SeverityHint
	if err := writeGitHub(&b, []diag.Diagnostic{d, hint}); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=docs/a%2Cb%3Ac.md,line=3,col=5,endLine=3,endColumn=10,title=charter-lsp missing-because::100%25 sure%0D%0Asecond line: yes, really\n" +
		"::notice file=docs/a%2Cb%3Ac.md,line=3,col=5,endLine=3,endColumn=10,title=charter-lsp missing-because::100%25 sure%0D%0Asecond line: yes, really\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	project, _ := testfixture.PiProject(t)
	out, _, code := cli(t, project, "", "check", "--format", "github")
	if code != 1 || !strings.Contains(out, "::error file=.pi/charters/auth-rework/criteria.md,line=30,col=5,endLine=30,endColumn=17,title=charter-lsp val-id-invalid::") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "::error ") && !strings.HasPrefix(line, "::warning ") && !strings.HasPrefix(line, "::notice ") {
			t.Errorf("not a workflow command: %q", line)
		}
	}
}

// Colour only on a terminal, unless --color says otherwise; NO_COLOR turns
// auto off, and an explicit --color=always wins over it (no-color.org).
func TestColor(t *testing.T) {
	root := testfixture.Copy(t, ".")
	const file = "rp1-interview/update-partial.md"
	colored := func(s string) bool { return strings.Contains(s, "\x1b[") }
	t.Setenv("NO_COLOR", "")
	t.Setenv("FORCE_COLOR", "")
	if out, errOut, _ := cli(t, root, "", "check", file); colored(out) || colored(errOut) {
		t.Error("auto coloured a pipe")
	}
	if out, errOut, _ := cli(t, root, "", "check", file, "--color=always"); !colored(out) || !colored(errOut) || !strings.Contains(out, "\x1b[33mwarning\x1b[0m") {
		t.Errorf("--color=always: %q", out)
	}
	onTerminal := func(args ...string) string {
		tty, control := openTerminal(t)
		code := inDir(t, root, func() int { return run(args, strings.NewReader(""), tty, io.Discard) })
		tty.Close()
		b, _ := io.ReadAll(control) // ends with EIO once the terminal side is closed
		if code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
		return string(b)
	}
	if out := onTerminal("check", file); !colored(out) {
		t.Errorf("auto did not colour a terminal: %q", out)
	}
	if out := onTerminal("check", file, "--color=never"); colored(out) || !strings.Contains(out, "warning") {
		t.Errorf("--color=never on a terminal: %q", out)
	}
	t.Setenv("NO_COLOR", "1")
	if out := onTerminal("check", file); colored(out) {
		t.Errorf("NO_COLOR did not turn auto off: %q", out)
	}
	if out, _, _ := cli(t, root, "", "check", file, "--color=always"); !colored(out) {
		t.Error("--color=always lost to NO_COLOR")
	}
}

// A path that holds no charter fails the run (exit 2, as eslint's
// unmatched pattern): a mistyped path must not pass CI. A named file that
// is not a charter, or is binary, is reported; the other paths are still
// checked.
func TestPathsThatHoldNoCharter(t *testing.T) {
	root := testfixture.Copy(t, ".")
	os.Mkdir(filepath.Join(root, "empty"), 0o755)
	os.WriteFile(filepath.Join(root, "notes.md"), []byte("# Notes\n\nNothing to see.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644)
	os.WriteFile(filepath.Join(root, "charter.md"), []byte("\x00\x01binary charter"), 0o644)
	os.MkdirAll(filepath.Join(root, "other"), 0o755)
	os.WriteFile(filepath.Join(root, "other", "charter.md"), []byte("# Team charter\n\nWe meet on Mondays.\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"empty"}, "charter-lsp check: empty holds no charter"},
		{[]string{"rp1-reel"}, "charter-lsp check: rp1-reel: no such file or folder"},
		{[]string{"notes.md"}, "charter-lsp check: notes.md is not a charter file"},
		{[]string{"logo.png"}, "charter-lsp check: logo.png is a binary file, not a charter: refused"},
		{[]string{"charter.md"}, "charter-lsp check: charter.md is a binary file, not a charter: refused"},
		{[]string{"other/charter.md"}, "charter-lsp check: other/charter.md is a charter.md but not an rp1 charter"},
		{[]string{"other"}, "charter-lsp check: other holds no charter (no rp1 charter.md, no .pi/charters/<id>/, no .charters/<id>/); other/charter.md is a charter.md but not rp1-style"},
	} {
		out, errOut, code := cli(t, root, "", append([]string{"check"}, tc.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	// One bad path among good ones: the good ones are checked, the run fails.
	out, errOut, code := cli(t, root, "", "check", "rp1-interview", "rp1-reel")
	if code != 2 || !strings.Contains(out, "update-partial.md") || !strings.Contains(errOut, "rp1-reel: no such file or folder") || !strings.Contains(errOut, "3 files checked") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// `check -` checks stdin as the file --stdin-filename names: its kind, its
// charter folder and the name in the output all come from that path.
func TestCheckStdin(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	criteria := ".pi/charters/auth-rework/criteria.md"
	src, _ := os.ReadFile(filepath.Join(project, criteria))
	edited := strings.Replace(string(src), "### VAL-SESS-003 — Implement token refresh endpoint", "### VAL-sess-003 — Tokens can be refreshed", 1)
	out, errOut, code := cli(t, project, edited, "check", "-", "--stdin-filename", criteria, "--format", "json")
	var ds []jsonDiag
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v: %s %s", err, out, errOut)
	}
	got := strings.Join(found(ds), "\n")
	for _, want := range []string{criteria + ":15 val-id-invalid", criteria + ":5 stale-evidence"} { // from stdin; staleness from the project's src/
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, criteria+":15 val-title-task") {
		t.Error("checked the file on disk, not stdin")
	}
	if code != 1 || errOut != "1 file checked: "+summaryCounts(ds)+"\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}

	rp1, _ := os.ReadFile(filepath.Join(testfixture.Dir(), "rp1-interview", "update-partial.md"))
	out, _, code = cli(t, t.TempDir(), string(rp1), "check", "-")
	if code != 0 || !strings.HasPrefix(out, "charter.md:4:1 warning status-complete-with-gaps") {
		t.Errorf("default stdin name: exit %d, %q", code, out)
	}
	for _, tc := range []struct{ stdin, want string }{
		{"just some notes\n", "charter-lsp check: stdin (as charter.md) is a charter.md but not an rp1 charter"},
		{"\x00\x00", "charter-lsp check: stdin (as charter.md) is a binary file, not a charter: refused"},
	} {
		if _, errOut, code := cli(t, t.TempDir(), tc.stdin, "check", "-"); code != 2 || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("stdin %q: exit %d, %q", tc.stdin, code, errOut)
		}
	}
}

func summaryCounts(ds []jsonDiag) string {
	var n tally
	for _, d := range ds {
		sev, _ := diag.ParseSeverity(d.Severity)
		n.add(sev, false)
	}
	return strings.TrimPrefix(n.summary(1, false), "1 file checked: ")
}

// --fix applies the fixes that need no input, writes each file atomically
// (keeping its mode), says what it fixed, and reports what remains; a
// second run finds nothing to fix.
func TestCheckFix(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	criteria := filepath.Join(charter, "criteria.md")
	os.Chmod(criteria, 0o600)
	out, errOut, code := cli(t, project, "", "check", "--fix")
	const c = ".pi/charters/auth-rework/criteria.md"
	for _, want := range []string{
		"fixed " + c + ":19:1 field-not-parsed: Rewrite as `Verifier: subagent`\n",
		"fixed " + c + ":20:1 field-not-parsed: Rewrite as `Agent: qa`\n",
		"fixed " + c + ":30:5 val-id-invalid: Change the id to VAL-ROLL-002\n",
		"fixed 3 problems in 1 file\n",
		"1 unsafe fix not applied (--unsafe-fixes applies it)\n", // invalid-verifier: the nearest kind is a guess
		"8 files checked: ",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	fixed, _ := os.ReadFile(criteria)
	for _, want := range []string{"\nVerifier: subagent\nAgent: qa\n", "### VAL-ROLL-002 — Dashboard", "Verifier: commnad\nCommand: ./scripts/rollback-drill.sh"} {
		if !strings.Contains(string(fixed), want) {
			t.Errorf("criteria.md lacks %q:\n%s", want, fixed)
		}
	}
	if !strings.Contains(string(fixed), "### VAL-SESS-003 — Implement token refresh endpoint\nVerifier: manual\n\n") {
		t.Error("a fix that needs input (an empty Because:) was applied")
	}
	if fi, _ := os.Stat(criteria); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if code != 1 || !strings.Contains(out, "missing-because") || strings.Contains(out, "field-not-parsed") || strings.Contains(out, "val-id-invalid") {
		t.Errorf("what remains: exit %d\n%s", code, out)
	}
	leftovers, _ := filepath.Glob(filepath.Join(charter, ".criteria.md.tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	again, errAgain, _ := cli(t, project, "", "check", "--fix")
	if strings.Contains(errAgain, "fixed") || again != out {
		t.Errorf("second --fix run changed something:\n%s", errAgain)
	}
}

// Fixes that only become possible after another applies run in later
// passes: a bullet verifier line with a misspelt kind needs two (the
// second, a guessed kind, unsafe).
func TestCheckFixRunsPasses(t *testing.T) {
	dir := t.TempDir()
	charter := filepath.Join(dir, ".pi", "charters", "c")
	os.MkdirAll(charter, 0o755)
	text := "## m1 One\n\n### VAL-A-001 One holds\n  - Verifier: commnad\nCommand: go test ./...\n\n### VAL-A-002 Two holds\nVerifier: hook\n\n### VAL-A-003 Three holds\nVerifer: hook\n"
	os.WriteFile(filepath.Join(charter, "criteria.md"), []byte(text), 0o644)
	_, errOut, code := cli(t, dir, "", "check", "--fix", "--unsafe-fixes")
	got, _ := os.ReadFile(filepath.Join(charter, "criteria.md"))
	want := strings.Replace(strings.Replace(text, "  - Verifier: commnad", "Verifier: command", 1), "Verifer: hook", "Verifier: hook", 1)
	if string(got) != want || code != 0 {
		t.Fatalf("exit %d, stderr:\n%s\ncriteria.md:\n%s", code, errOut, got)
	}
	for _, want := range []string{
		"fixed criteria.md:4:1 field-not-parsed: Rewrite as `Verifier: commnad`",
		"fixed criteria.md:11:1 field-key-typo: Change the key to Verifier (unsafe)",
		"fixed criteria.md:4:11 invalid-verifier: Change the verifier to command (unsafe)", // the second pass
		"fixed 3 problems in 1 file",
		"1 file checked: 0 problems",
	} {
		if !strings.Contains(errOut, strings.Replace(want, "criteria.md", ".pi/charters/c/criteria.md", 1)) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// --diff prints what --fix would change as a unified diff that patch
// applies, and writes nothing.
func TestCheckDiff(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	before, _ := os.ReadFile(filepath.Join(charter, "criteria.md"))
	diff, errOut, code := cli(t, project, "", "check", "--diff")
	if after, _ := os.ReadFile(filepath.Join(charter, "criteria.md")); string(after) != string(before) {
		t.Fatal("--diff wrote the file")
	}
	if code != 1 || !strings.HasPrefix(diff, "--- a/.pi/charters/auth-rework/criteria.md\n+++ b/.pi/charters/auth-rework/criteria.md\n@@ ") ||
		!strings.Contains(errOut, "would fix 3 problems in 1 file") || strings.Contains(diff, "missing-because") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, diff, errOut)
	}
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch to apply the diff with")
	}
	patched, _ := testfixture.PiProject(t)
	cmd := exec.Command("patch", "-p1", "--quiet")
	cmd.Dir, cmd.Stdin = patched, strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s", err, out)
	}
	cli(t, project, "", "check", "--fix")
	want, _ := os.ReadFile(filepath.Join(charter, "criteria.md"))
	if got, _ := os.ReadFile(filepath.Join(patched, ".pi", "charters", "auth-rework", "criteria.md")); string(got) != string(want) {
		t.Errorf("the diff applied differs from what --fix wrote:\n%s", got)
	}
	// From stdin too: the diff names the --stdin-filename.
	out, _, _ := cli(t, project, string(before), "check", "-", "--stdin-filename", ".pi/charters/auth-rework/criteria.md", "--diff")
	if out != diff {
		t.Errorf("stdin --diff:\n%s", out)
	}
}

// --fix replaces files, never what a symbolic link points to, and never a
// file that changed since it was read.
func TestWriteFixedRefuses(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.md")
	link := filepath.Join(dir, "charter.md")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	in := atomicfile.In(dir)
	if err := writeFixed(vfs.OS, in, link, []byte("old"), []byte("new")); err == nil || !strings.Contains(err.Error(), "is a symbolic link to "+target+"; it was left as it is") {
		t.Errorf("err = %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "old" {
		t.Error("the link's target changed")
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if err := writeFixed(vfs.OS, in, target, []byte("older"), []byte("new")); err == nil || !strings.Contains(err.Error(), "changed while it was being fixed") {
		t.Errorf("err = %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "old" {
		t.Error("a file changed meanwhile was overwritten")
	}
}

// A charter folder, a folder inside one, and .pi/charters itself hold
// charters too (status and record take them as well).
func TestCheckPiCharterFolders(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	for _, tc := range []struct {
		path  string
		files int
	}{
		{".", 8}, {".pi", 8}, {".pi/charters", 8}, {".pi/charters/auth-rework", 8}, {".pi/charters/auth-rework/work", 3},
	} {
		_, errOut, code := cli(t, project, "", "check", tc.path)
		if want := count(tc.files, "file", "files") + " checked: "; code != 1 || !strings.HasPrefix(errOut, want) {
			t.Errorf("check %s: exit %d, %q, want %q", tc.path, code, errOut, want)
		}
	}
	if out, errOut, code := cli(t, project, "", "status", ".pi/charters"); code != 0 || !strings.HasPrefix(out, ".pi/charters/auth-rework\n") {
		t.Errorf("status .pi/charters: exit %d, %q %q", code, out, errOut)
	}
}

// --format json carries each diagnostic's fix, with LSP ranges, for tools
// that apply fixes themselves.
func TestCheckJSONCarriesFixes(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	out, _, _ := cli(t, project, "", "check", "--format", "json", ".pi/charters/auth-rework/criteria.md")
	var ds []struct {
		Code string `json:"code"`
		Fix  *struct {
			Title      string `json:"title"`
			NeedsInput bool   `json:"needsInput"`
			Edits      []struct {
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
					End   struct{ Line, Character int } `json:"end"`
				} `json:"range"`
				NewText string `json:"newText"`
			} `json:"edits"`
		} `json:"fix"`
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Fix == nil {
			continue
		}
		seen[d.Code] = true
		if d.Code == "val-id-invalid" {
			e := d.Fix.Edits[0]
			if d.Fix.Title != "Change the id to VAL-ROLL-002" || e.NewText != "VAL-ROLL-002" || e.Range.Start.Line != 29 || e.Range.Start.Character != 4 || e.Range.End.Character != 16 {
				t.Errorf("val-id-invalid fix: %+v", d.Fix)
			}
		}
		if d.Code == "missing-because" && !d.Fix.NeedsInput {
			t.Error("the Because: fix does not say it needs input")
		}
	}
	for _, code := range []string{"val-id-invalid", "field-not-parsed", "invalid-verifier", "missing-because"} {
		if !seen[code] {
			t.Errorf("no fix on %s", code)
		}
	}
}

// A one-sentence section is section-partial, a hint the UPDATE interview
// can follow up on, not a gap (issue 22): a charter whose only finding it
// is passes `check --max-warnings 0`, and says so. Made a warning again
// (--severity), the same finding fails the run.
func TestSectionPartialAloneDoesNotFailMaxWarnings(t *testing.T) {
	dir := t.TempDir()
	charter := "# Project Charter: Runbook Finder\n\n**Version**: 1.0.0\n**Status**: Complete\n\n" +
		"## Problem & Context\n\nOn-call engineers lose the first ten minutes of an incident searching five wikis for runbooks. Half of the runbooks they find are stale.\n\n" +
		"## Target Users\n\nOn-call engineers and their team leads at companies with 20-200 engineers. They answer pages at any hour and need the right runbook first.\n\n" +
		"## Business Rationale\n\nThe first ten minutes of an incident go to fixing it instead of searching.\n\n" +
		"## Scope Guardrails\n\nWe index the runbooks teams already keep and rank them by the alert that fired. We will not write or host runbooks ourselves.\n\n" +
		"## Success Criteria\n\nThe right runbook is the first result for nine pages in ten. Time to first action drops below two minutes.\n"
	if err := os.WriteFile(filepath.Join(dir, "charter.md"), []byte(charter), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := cli(t, dir, "", "check", "--max-warnings", "0")
	if code != 0 || strings.Count(strings.TrimSpace(out), "\n") != 0 || !strings.Contains(out, "hint section-partial") || !strings.Contains(errOut, "1 hint") {
		t.Errorf("exit %d, want 0 with one section-partial hint:\n%s%s", code, out, errOut)
	}
	if _, errOut, code := cli(t, dir, "", "check", "--max-warnings", "0", "--severity", "section-partial=warning"); code != 1 {
		t.Errorf("as a warning: exit %d, want 1\n%s", code, errOut)
	}
}
