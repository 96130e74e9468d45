package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"golang.org/x/tools/txtar"
)

// JSON output names every file the same way: a related place is relative
// to the working folder as the diagnostic's own file is, not absolute.
func TestJSONRelatedFilesRelative(t *testing.T) {
	dir := t.TempDir()
	testfixture.WriteFiles(t, dir, map[string]string{
		".pi/charters/dup/charter.md":  "# Charter: dup\n\n## Objective\n\nShip it.\n",
		".pi/charters/dup/criteria.md": "# Criteria\n\n## m1 First\n\n### VAL-DUP-001 — One\nVerifier: manual\nBecause: a person looks\n\n### VAL-DUP-001 — Two\nVerifier: manual\nBecause: a person looks\n",
	})
	out, errOut, _ := cli(t, dir, "", "check", "--format", "json")
	var ds []struct {
		File    string `json:"file"`
		Code    string `json:"code"`
		Related []struct {
			File string `json:"file"`
		} `json:"related"`
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	n := 0
	for _, d := range ds {
		for _, r := range d.Related {
			n++
			if filepath.IsAbs(r.File) || r.File != d.File {
				t.Errorf("%s in %s: related file %q, want %q", d.Code, d.File, r.File, d.File)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no related place to look at:\n%s", out)
	}
}

// `status DIR` prints command lines that run when pasted where status ran,
// not only inside DIR: a user who typed `status examples/pi-project` pastes
// into the same shell.
func TestStatusSuggestionsRunFromHere(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	here := filepath.Dir(project)
	arg := filepath.Base(project)
	for _, format := range []string{"json", "text"} {
		out, errOut, code := cli(t, here, "", "status", arg, "--format", format, "--now", "2026-11-13T12:00:00Z")
		if code != 0 {
			t.Fatalf("status %s: exit %d: %s", arg, code, errOut)
		}
		var lines []string
		if format == "json" {
			var sts []struct {
				NextActions []struct{ CLI string } `json:"nextActions"`
			}
			if err := json.Unmarshal([]byte(out), &sts); err != nil {
				t.Fatal(err)
			}
			for _, a := range sts[0].NextActions {
				if a.CLI != "" {
					lines = append(lines, a.CLI)
				}
			}
		} else {
			for _, l := range strings.Split(out, "\n") {
				if cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "run:"); ok {
					lines = append(lines, strings.TrimSpace(cmd))
				}
			}
		}
		if len(lines) < 2 {
			t.Fatalf("%s: only %d command lines:\n%s", format, len(lines), out)
		}
		for _, line := range lines {
			words := shellWords(t, line)
			if words[1] == "record" {
				continue // it would write; its --charter is checked below
			}
			if words[1] == "verify" {
				// It would run the criterion's command: pasted without a
				// terminal, it finds the criterion, shows the command and
				// refuses to run it unasked.
				if _, errOut, code := cli(t, here, "", words[1:]...); code != 2 || !strings.Contains(errOut, "Run the command that verifies") || !strings.Contains(errOut, "pass --yes") {
					t.Errorf("%s (pasted in the folder status ran in): exit %d, %s", line, code, errOut)
				}
				continue
			}
			if _, errOut, code := cli(t, here, "", words[1:]...); code != 0 && !(words[1] == "check" && code == 1) {
				t.Errorf("%s (pasted in the folder status ran in): exit %d, %s", line, code, errOut)
			}
		}
		for _, line := range lines {
			words := shellWords(t, line)
			for i, w := range words {
				if w == "--charter" {
					if _, err := os.Stat(filepath.Join(here, words[i+1], "criteria.md")); err != nil {
						t.Errorf("%s: --charter %s is no charter from here", line, words[i+1])
					}
				}
			}
		}
	}
}

// --fix applies only safe fixes, which change how something is written and
// not what it says: `Status: pass—written` becomes `pass — written`, but `Status: done`
// becoming `pass` claims a verification the author did not write, so it
// waits for --unsafe-fixes, and check says how many fixes it left.
func TestFixSafeAndUnsafe(t *testing.T) {
	dir := t.TempDir()
	const id = ".charters/20260101-000000-ship-it"
	testfixture.WriteFiles(t, dir, map[string]string{
		id + "/charter.md": "## Objective\n\nShip it.\n\n## Criteria\n\n### C1. Works\nStatus: pass—tested by hand\n\n### C2. Docs\nStatus: done\n",
		id + "/state.json": `{"charterId": "20260101-000000-ship-it", "schemaVersion": "file-interface", "objective": "Ship it", "status": "active"}` + "\n",
	})
	charter := filepath.Join(dir, filepath.FromSlash(id), "charter.md")
	_, errOut, _ := cli(t, dir, "", "check", "--fix")
	got, _ := os.ReadFile(charter)
	if !strings.Contains(string(got), "Status: pass — tested by hand\n") {
		t.Errorf("the safe fix (a dash glued to pass) was not applied:\n%s\n%s", got, errOut)
	}
	if !strings.Contains(string(got), "Status: done\n") {
		t.Errorf("--fix applied the unsafe fix (done → pass):\n%s", got)
	}
	if !strings.Contains(errOut, "1 unsafe fix not applied (--unsafe-fixes applies it)") {
		t.Errorf("stderr does not say a fix was left:\n%s", errOut)
	}
	diff, _, _ := cli(t, dir, "", "check", "--diff", "--unsafe-fixes")
	if !strings.Contains(diff, "-Status: done\n+Status: pass\n") {
		t.Errorf("--diff --unsafe-fixes does not show the unsafe fix:\n%s", diff)
	}
	_, errOut, _ = cli(t, dir, "", "check", "--fix", "--unsafe-fixes")
	got, _ = os.ReadFile(charter)
	if !strings.Contains(string(got), "### C2. Docs\nStatus: pass\n") || !strings.Contains(errOut, "criterion-status-unknown") {
		t.Errorf("--fix --unsafe-fixes did not apply it:\n%s\n%s", got, errOut)
	}
	if _, errOut, code := cli(t, dir, "", "check", "--unsafe-fixes"); code != 2 || !strings.Contains(errOut, "--unsafe-fixes") {
		t.Errorf("--unsafe-fixes without --fix or --diff: exit %d, %s", code, errOut)
	}
}

// The JSON output says which fixes are unsafe, and the catalogue's
// classification holds for every fix the checks make on the repository's
// examples and fixtures: a code classified safe never makes an unsafe fix,
// one classified unsafe never a safe one, one without fixes none.
func TestFixSafetyMatchesCatalogue(t *testing.T) {
	roots := []string{corpusProject(t)}
	for _, r := range []string{"../../examples", "../../testdata"} {
		abs, _ := filepath.Abs(r)
		roots = append(roots, abs)
	}
	seen := map[string]int{}
	for _, root := range roots {
		out, errOut, _ := cli(t, root, "", "check", "--format", "json", ".")
		var ds []struct {
			Code string `json:"code"`
			Fix  *struct {
				Unsafe bool `json:"unsafe"`
			} `json:"fix"`
		}
		if err := json.Unmarshal([]byte(out), &ds); err != nil {
			t.Fatalf("%s: %v\n%s", root, err, errOut)
		}
		for _, d := range ds {
			if d.Fix == nil {
				continue
			}
			code, _ := diag.ParseCode(d.Code)
			seen[d.Code]++
			switch s := code.FixSafety(); {
			case s == diag.FixNone:
				t.Errorf("%s makes a fix, but the catalogue says it has none", d.Code)
			case s == diag.FixSafe && d.Fix.Unsafe:
				t.Errorf("%s is classified safe, but made an unsafe fix", d.Code)
			case s == diag.FixUnsafe && !d.Fix.Unsafe:
				t.Errorf("%s is classified unsafe, but made a safe fix", d.Code)
			}
		}
	}
	t.Logf("fixes seen: %v", seen)
	if len(seen) < 5 {
		t.Errorf("only %d codes with fixes seen in %v: %v", len(seen), roots, seen)
	}
}

// corpusProject lays the checkers' test inputs out as a project check
// discovers: each .charters corpus archive as a charter folder (with a
// state.json of its generation when it has none), each pi criteria archive
// as a .pi/charters/ folder, each rp1 test charter as a charter.md.
func corpusProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	archives, _ := filepath.Glob("../../analysis/charterfile/testdata/corpus/*/*.txt")
	for i, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf(".charters/20260101-000000-c%d", i)
		schema := "phases"
		if g := filepath.Base(filepath.Dir(a)); g == "fi14" || g == "fi15" {
			schema = "file-interface"
		}
		files[id+"/state.json"] = fmt.Sprintf(`{"charterId": "20260101-000000-c%d", "schemaVersion": %q, "objective": "x", "status": "active"}`, i, schema)
		for _, f := range ar.Files {
			files[id+"/"+f.Name] = string(f.Data)
		}
	}
	archives, _ = filepath.Glob("../../analysis/pi/testdata/criteria/*.txt")
	for i, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf(".pi/charters/p%d", i)
		files[id+"/charter.md"] = "# Charter: x\n\n## Objective\n\nShip it.\n"
		for _, f := range ar.Files {
			files[id+"/"+f.Name] = string(f.Data)
		}
	}
	mds, _ := filepath.Glob("../../analysis/rp1/testdata/*.md")
	corpus, _ := filepath.Glob("../../analysis/rp1/testdata/corpus/*.md")
	for i, m := range append(mds, corpus...) {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("rp1/r%d/charter.md", i)] = string(b)
	}
	testfixture.WriteFiles(t, dir, files)
	return dir
}

// Migrating a charter carries what pi-charter reads today, misreadings
// included (`Status: done` reads as pending, with "done" as its note): the
// migration says so first and how to correct them, so C3 is not carried
// over as "C3 — pending — done" unawares.
func TestMigrateSuggestsFixFirst(t *testing.T) {
	dir := t.TempDir()
	const id = ".charters/20260101-000000-ship-it"
	testfixture.WriteFiles(t, dir, map[string]string{
		id + "/charter.md": "## Objective\n\nShip it.\n\n## Criteria\n\n### C1. Works\nStatus: pass — tested by hand\n\n### C3. Docs\nStatus: done\n",
		id + "/state.json": `{"charterId": "20260101-000000-ship-it", "schemaVersion": "file-interface", "objective": "Ship it", "status": "active"}` + "\n",
	})
	out, errOut, code := cli(t, dir, "", "migrate", id)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "C3 — pending — done") {
		t.Fatalf("the fixture no longer shows the misreading:\n%s", out)
	}
	first := strings.Index(out, "charter-lsp check --fix --unsafe-fixes "+id)
	if first < 0 || first > strings.Index(out, "=== ") {
		t.Errorf("the migration does not suggest check --fix before its files:\n%s", out)
	}
	if !strings.Contains(out, "C3") || !strings.Contains(out, "criterion-status-unknown") {
		t.Errorf("the suggestion does not say what it would correct:\n%s", out)
	}
	// A charter without such findings gets no suggestion.
	clean := t.TempDir()
	testfixture.WriteFiles(t, clean, map[string]string{
		id + "/charter.md": "## Objective\n\nShip it.\n\n## Criteria\n\n### C1. Works\nStatus: pass — tested by hand\n",
		id + "/state.json": `{"charterId": "20260101-000000-ship-it", "schemaVersion": "file-interface", "objective": "Ship it", "status": "active"}` + "\n",
	})
	if out, _, _ := cli(t, clean, "", "migrate", id); strings.Contains(out, "check --fix") {
		t.Errorf("a clean charter gets a suggestion:\n%s", out)
	}
}

// Short flags where peers have them (eslint's -f and -c, ruff's -q and -v,
// gofmt's -w), and a mistyped flag is never answered with a flag that
// rewrites files: `-f json` used to say "unknown flag --f (did you mean
// --fix?)".
func TestShortFlagsAndSafeSuggestions(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	out, errOut, code := cli(t, project, "", "check", "-f", "json", "-q")
	var ds []map[string]any
	if err := json.Unmarshal([]byte(out), &ds); err != nil || code != 1 {
		t.Fatalf("check -f json -q: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	for _, d := range ds {
		if d["severity"] != "error" {
			t.Errorf("-q shows a %v", d["severity"])
		}
	}
	cfg := filepath.Join(t.TempDir(), "ci.jsonc")
	os.WriteFile(cfg, []byte(`{"severity": {"duplicate-val-id": "off", "val-id-invalid": "off"}}`), 0o644)
	if out, _, _ := cli(t, project, "", "check", "-c", cfg, "-f", "json"); strings.Contains(out, "duplicate-val-id") {
		t.Errorf("-c did not apply the configuration:\n%s", out)
	}
	if out, _, code := cli(t, project, "", "status", "-f", "json"); code != 0 || !strings.HasPrefix(out, "[") {
		t.Errorf("status -f json: exit %d\n%s", code, out)
	}
	if out, _, code := cli(t, project, "", "check", "-V"); code != 0 || !strings.HasPrefix(out, "charter-lsp ") {
		t.Errorf("check -V: exit %d %q", code, out)
	}
	for _, c := range []struct {
		args []string
		want string // the whole first line of the error
	}{
		{[]string{"check", "--fx"}, "charter-lsp check: unknown flag --fx"},
		{[]string{"check", "--fixx"}, "charter-lsp check: unknown flag --fixx"},
		{[]string{"check", "--unsafe-fix"}, "charter-lsp check: unknown flag --unsafe-fix"},
		{[]string{"check", "-x"}, "charter-lsp check: unknown flag -x"},
		{[]string{"check", "--formt", "json"}, "charter-lsp check: unknown flag --formt (did you mean --format?)"},
		{[]string{"migrate", "--writ", "x"}, "charter-lsp migrate: unknown flag --writ"},
		{[]string{"interview", "--aply", "x.md"}, "charter-lsp interview: unknown flag --aply"},
	} {
		_, errOut, code := cli(t, project, "", c.args...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code != 2 || first != c.want {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, first, c.want)
		}
	}
}

// FORCE_COLOR colours a pipe in auto mode (CI logs render colour), over
// NO_COLOR as Node's tools do; "0" and "false" do not force; an explicit
// --color never still wins.
func TestForceColor(t *testing.T) {
	root := testfixture.Copy(t, ".")
	const file = "rp1-interview/update-partial.md"
	colored := func(s string) bool { return strings.Contains(s, "\x1b[") }
	t.Setenv("NO_COLOR", "")
	for _, c := range []struct {
		force, noColor string
		args           []string
		want           bool
	}{
		{"1", "", nil, true},
		{"", "", nil, false},
		{"true", "1", nil, true},
		{"0", "", nil, false},
		{"false", "", nil, false},
		{"1", "", []string{"--color", "never"}, false},
	} {
		t.Setenv("FORCE_COLOR", c.force)
		t.Setenv("NO_COLOR", c.noColor)
		out, errOut, _ := cli(t, root, "", append([]string{"check", file}, c.args...)...)
		if colored(out) != c.want || colored(errOut) != c.want {
			t.Errorf("FORCE_COLOR=%q NO_COLOR=%q %v: coloured %v, want %v", c.force, c.noColor, c.args, colored(out), c.want)
		}
	}
}

// --severity CODE=LEVEL changes a code's severity for one run, over the
// project file (as eslint's --rule): a CI job can fail on a warning code
// or switch one off without editing the configuration.
func TestSeverityFlag(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	codes := func(args ...string) map[string]string {
		t.Helper()
		out, errOut, _ := cli(t, project, "", append([]string{"check", "-f", "json"}, args...)...)
		var ds []struct{ Code, Severity string }
		if err := json.Unmarshal([]byte(out), &ds); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		m := map[string]string{}
		for _, d := range ds {
			m[d.Code] = d.Severity
		}
		return m
	}
	base := codes()
	if base["missing-because"] != "warning" || base["val-id-invalid"] != "error" {
		t.Fatalf("the fixture changed: %v", base)
	}
	got := codes("--severity", "missing-because=error", "--severity", "val-id-invalid=off,val-title-task=hint")
	if got["missing-because"] != "error" || got["val-id-invalid"] != "" || got["val-title-task"] != "hint" {
		t.Errorf("--severity: %v", got)
	}
	os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte(`{"severity": {"missing-because": "off"}}`), 0o644)
	if got := codes("--severity", "missing-because=warning"); got["missing-because"] != "warning" {
		t.Errorf("--severity over the project file: %v", got["missing-because"])
	}
	cfg := filepath.Join(t.TempDir(), "ci.jsonc")
	os.WriteFile(cfg, []byte(`{"severity": {"missing-because": "off"}}`), 0o644)
	if got := codes("-c", cfg, "--severity", "missing-because=error"); got["missing-because"] != "error" {
		t.Errorf("--severity over --config: %v", got["missing-because"])
	}
	for _, bad := range []string{"no-such-code=off", "missing-because=loud", "missing-because"} {
		_, errOut, code := cli(t, project, "", "check", "--severity", bad)
		if first, _, _ := strings.Cut(errOut, "\n"); code != 2 || !strings.HasPrefix(first, "charter-lsp check: invalid value \""+bad+"\" for flag --severity: ") {
			t.Errorf("--severity %s: exit %d, %q", bad, code, first)
		}
	}
}

// --print-config PATH prints the configuration check applies to PATH, with
// the defaults filled in and the command line's flags applied, as JSON
// that --config reads back (eslint's --print-config, ruff's
// --show-settings).
func TestPrintConfig(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte(`{"severity": {"val-title-task": "off"}, "sourceDirs": ["src", "lib"]}`), 0o644)
	out, errOut, code := cli(t, project, "", "check", "--print-config", ".pi/charters/auth-rework/criteria.md", "--freshness", "mtime", "--severity", "milestone-size=hint")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "// .charter-lsp.jsonc, with the command line's flags\n") {
		t.Errorf("the first line does not say where the configuration came from:\n%s", out)
	}
	cfg, err := analysis.ParseConfig([]byte(out))
	if err != nil {
		t.Fatalf("the printed configuration does not read back: %v\n%s", err, out)
	}
	if cfg.Severity["val-title-task"] != "off" || cfg.Severity["milestone-size"] != "hint" || strings.Join(cfg.SourceDirs, ",") != "src,lib" ||
		cfg.Freshness != "mtime" || cfg.QuestionBudget != analysis.DefaultQuestionBudget || cfg.DebounceMs == nil {
		t.Errorf("printed %+v:\n%s", cfg, out)
	}
	out, _, code = cli(t, t.TempDir(), "", "check", "--print-config")
	if code != 0 || !strings.HasPrefix(out, "// no configuration file: the defaults\n") {
		t.Errorf("no configuration: exit %d\n%s", code, out)
	}
}

// check walks past what .gitignore ignores and what --ignore names, says so
// when that leaves nothing, and still checks a file named on the command
// line. Every family is skipped alike: a pi charter folder under an ignored
// folder too (it used to be found by a second walk that knew no --ignore).
func TestCheckIgnores(t *testing.T) {
	dir := t.TempDir()
	const rp1 = "# Project Charter: X\n\n## Vision\n\n_TBD_\n"
	const register = "## m1 One\n\n### VAL-A-001 — Builds\nno verifier line\n"
	testfixture.WriteFiles(t, dir, map[string]string{
		".git/HEAD":                         "ref: refs/heads/main\n",
		".gitignore":                        "build/\n",
		"build/charter.md":                  rp1,
		"docs/charter.md":                   rp1,
		"drafts/charter.md":                 rp1,
		"vendor/x/charter.md":               rp1,
		"build/.pi/charters/b/criteria.md":  register,
		"drafts/.pi/charters/d/criteria.md": register,
	})
	files := func(args ...string) []string { return strings.Split(checkedFiles(t, dir, args...), ",") }
	if got := files(); strings.Join(got, ",") != "docs/charter.md,drafts/.pi/charters/d/criteria.md,drafts/charter.md" {
		t.Errorf("check: %v", got)
	}
	for _, args := range [][]string{{"--ignore", "drafts/"}, {"--ignore", "drafts/", "--verbose"}} {
		if got := files(args...); strings.Join(got, ",") != "docs/charter.md" {
			t.Errorf("check %v: %v", args, got)
		}
	}
	if got := files("build/charter.md"); strings.Join(got, ",") != "build/charter.md" {
		t.Errorf("a named ignored file: %v", got)
	}
	_, errOut, code := cli(t, dir, "", "check", "build")
	if code != 2 || !strings.Contains(errOut, "build holds no charter") || !strings.Contains(errOut, "2 paths skipped as ignored (.gitignore, --ignore), such as build/.pi") {
		t.Errorf("check build: exit %d %s", code, errOut)
	}
}

// The help and the message for a file that is not a charter name every
// family check reads, .charters/ included.
func TestHelpAndRefusalNameEveryFamily(t *testing.T) {
	dir := t.TempDir()
	out, _, _ := cli(t, dir, "", "-h")
	first, _, _ := strings.Cut(out, "\n")
	if !strings.Contains(first, ".charters/") || !strings.Contains(first, ".pi/charters/") || !strings.Contains(first, "charter.md") {
		t.Errorf("help's first line: %q", first)
	}
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n"), 0o644)
	_, errOut, code := cli(t, dir, "", "check", "notes.md")
	if code != 2 || !strings.Contains(errOut, ".charters/<id>/") {
		t.Errorf("check notes.md: exit %d, %q", code, errOut)
	}
}

// A quoted glob PATH selects the charter files it matches, as eslint and
// markdownlint-cli2 take globs; one that matches none fails the run.
func TestCheckGlobPaths(t *testing.T) {
	dir := t.TempDir()
	const rp1 = "# Project Charter: X\n\n## Vision\n\n_TBD_\n"
	testfixture.WriteFiles(t, dir, map[string]string{
		"docs/a/charter.md":          rp1,
		"docs/b/c/charter.md":        rp1,
		"other/charter.md":           rp1,
		".pi/charters/x/criteria.md": "## m1 One\n\n### VAL-A-001 — It holds\n",
		".pi/charters/x/charter.md":  "# Charter: x\n\n## Objective\n\nShip.\n",
	})
	files := func(args ...string) string { return checkedFiles(t, dir, args...) }
	if got := files("docs/**/charter.md"); got != "docs/a/charter.md,docs/b/c/charter.md" {
		t.Errorf("docs/**/charter.md: %s", got)
	}
	if got := files("**/criteria.md"); got != ".pi/charters/x/criteria.md" {
		t.Errorf("**/criteria.md: %s", got)
	}
	if _, errOut, code := cli(t, dir, "", "check", "nowhere/**/charter.md"); code != 2 || !strings.Contains(errOut, "no such folder") {
		t.Errorf("a glob under no folder: exit %d %s", code, errOut)
	}
	if _, errOut, code := cli(t, dir, "", "check", "docs/**/CHARTER.txt"); code != 2 || !strings.Contains(errOut, "matches no charter file") {
		t.Errorf("a glob matching nothing: exit %d %s", code, errOut)
	}
}

// docs/cli.md's conventions table fills every cell.
func TestConventionsTableFilled(t *testing.T) {
	rows := 0
	for _, line := range strings.Split(conventions, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| convention ") {
			continue
		}
		cells := regexp.MustCompile(`[^\\]\|`).Split(strings.Trim(line, "|"), -1)
		if len(cells) != 3 {
			t.Errorf("%d cells: %s", len(cells), line)
			continue
		}
		for _, c := range cells {
			if strings.TrimSpace(c) == "" {
				t.Errorf("an empty cell: %s", line)
			}
		}
		rows++
	}
	if rows < 20 {
		t.Errorf("only %d conventions", rows)
	}
}

// checkedFiles runs check -f json with args in dir and lists the files it
// reported on, in order, comma-separated.
func checkedFiles(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errOut, _ := cli(t, dir, "", append([]string{"check", "-f", "json"}, args...)...)
	var ds []struct{ File string }
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v: %v %s", args, err, errOut)
	}
	var fs []string
	for _, d := range ds {
		if !slices.Contains(fs, d.File) {
			fs = append(fs, d.File)
		}
	}
	return strings.Join(fs, ",")
}

// A charter folder under .pi/charters that .gitignore or --ignore covers
// is skipped whichever way check reaches it: naming .pi/charters or its
// parent, one PATH or two, walked as it is checked or listed first
// (--verbose), or by a glob, and its verdict (the exit code) is the same.
func TestCheckIgnoresChartersUnderNamedPiCharters(t *testing.T) {
	dir := t.TempDir()
	const register = "## m1 One\n\n### VAL-A-001 — Builds\nno verifier line\n"
	testfixture.WriteFiles(t, dir, map[string]string{
		".git/HEAD":                           "ref: refs/heads/main\n",
		".gitignore":                          ".pi/charters/g/\n",
		".pi/charters/a/criteria.md":          register,
		".pi/charters/g/criteria.md":          register + "\n### VAL-A-001 — Again\n",
		".pi/charters/f/criteria.md":          register + "\n### VAL-A-001 — Again\n",
		".pi/charters/f/criterion-state.json": "{",
	})
	ignore := []string{"--ignore", ".pi/charters/f/"}
	_, _, want := cli(t, dir, "", append([]string{"check"}, append(ignore, ".pi/charters/a")...)...)
	for _, paths := range [][]string{
		{".pi/charters"},
		{".pi"},
		{".pi/charters", ".pi"},
		{"--verbose", ".pi/charters"},
		{"--verbose", ".pi"},
		{".pi/charters/*/criteria.md"},
	} {
		args := append(slices.Clone(ignore), paths...)
		if got := checkedFiles(t, dir, args...); got != ".pi/charters/a/criteria.md" {
			t.Errorf("check -f json %v: files %s", args, got)
		}
		if _, errOut, code := cli(t, dir, "", append([]string{"check"}, args...)...); code != want {
			t.Errorf("check %v: exit %d, want %d (as .pi/charters/a alone)\n%s", args, code, want, errOut)
		}
	}
	// status and record (--charter) read .pi/charters by the same rule;
	// they take no --ignore.
	for _, arg := range []string{".pi/charters", ".pi"} {
		dirs, err := piCharterDirs(vfs.OS, filepath.Join(dir, arg))
		for i := range dirs {
			dirs[i], _ = filepath.Rel(dir, dirs[i])
		}
		if err != nil || strings.Join(dirs, ",") != filepath.FromSlash(".pi/charters/a,.pi/charters/f") {
			t.Errorf("piCharterDirs(%s) = %v, %v", arg, dirs, err)
		}
	}
}
