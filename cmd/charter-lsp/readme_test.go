package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// shellWords splits a command line as a POSIX shell would for the simple
// lines the README and status print: words, 'single' and "double" quotes.
// It fails the test on anything a shell would treat specially outside
// quotes (a pipe, a redirection), which pasting would not run as written.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				t.Fatalf("unterminated quote in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte("|&;<>()$`\\*?[#~", c) >= 0:
			t.Fatalf("%q holds %q, which a shell would not pass as written", line, c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// readmeCommand returns the first line of a README sh or yaml block (a
// workflow's `- run:` step) that starts with prefix.
func readmeCommand(t *testing.T, prefix string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lang := ""
	for _, line := range strings.Split(string(readme), "\n") {
		if fence, ok := strings.CutPrefix(line, "```"); ok {
			lang = fence // "" when the block ends
			continue
		}
		l := strings.TrimSpace(line)
		if lang == "yaml" {
			l = strings.TrimSpace(strings.TrimPrefix(l, "- run:"))
		}
		if (lang == "sh" || lang == "yaml") && strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("the README has no sh or yaml line starting %q", prefix)
	return ""
}

// The README's record example works as written when pasted in a clone.
func TestReadmeRecordExample(t *testing.T) {
	line := readmeCommand(t, "charter-lsp record ")
	clone := t.TempDir()
	examples := filepath.Join(clone, "examples")
	if err := os.CopyFS(examples, os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := cli(t, clone, "", shellWords(t, line)[1:]...)
	if code != 0 || !strings.HasPrefix(out, "recorded VAL-EXP-002 pass in examples/pi-project/.pi/charters/csv-export/work/_charter/evidence/") {
		t.Fatalf("%s\nexit %d\nstdout %q\nstderr %q", line, code, out, errOut)
	}
	st, _, _ := cli(t, clone, "", "status", "examples/pi-project", "--format", "json")
	if !strings.Contains(st, `"criterionId": "VAL-EXP-002"`) || !strings.Contains(st, `"lastSummary": "jest: streams large exports, 2 passed"`) {
		t.Errorf("status does not show the record:\n%s", st)
	}
}

// The README's GitHub Actions step runs as written and prints workflow
// commands.
func TestReadmeWorkflowCheck(t *testing.T) {
	line := readmeCommand(t, "charter-lsp check --format github")
	project, _ := testfixture.PiProject(t)
	out, errOut, code := cli(t, project, "", shellWords(t, line)[1:]...)
	if code != 1 || !strings.HasPrefix(out, "::") || !strings.Contains(errOut, "files checked") {
		t.Errorf("%s: exit %d\n%s\n%s", line, code, out, errOut)
	}
}

// The command lines status suggests run as printed, from the project folder.
func TestStatusSuggestionsRun(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	out, _, code := cli(t, project, "", "status", "--format", "json", "--now", "2026-11-13T12:00:00Z")
	var sts []struct {
		NextActions []struct{ Tool, CLI string } `json:"nextActions"`
	}
	if err := json.Unmarshal([]byte(out), &sts); err != nil || code != 0 || len(sts) != 1 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	ran := 0
	for _, a := range sts[0].NextActions {
		if a.CLI == "" {
			continue
		}
		words := shellWords(t, a.CLI)
		if words[0] != "charter-lsp" {
			t.Fatalf("%q is not a charter-lsp command", a.CLI)
		}
		_, errOut, code := cli(t, project, "", words[1:]...)
		switch {
		case words[1] == "verify":
			// It finds the VAL and shows its command; without a terminal
			// to ask on it runs nothing (the test's stdin is no terminal).
			if code != 2 || !strings.Contains(errOut, "Run the command that verifies "+words[2]) || !strings.Contains(errOut, "pass --yes") {
				t.Errorf("%s: exit %d, %s", a.CLI, code, errOut)
			}
		case code != 0 && !(words[1] == "check" && code == 1):
			t.Errorf("%s: exit %d, %s", a.CLI, code, errOut)
		}
		ran++
	}
	if ran < 2 {
		t.Errorf("only %d suggestions with a command line", ran)
	}
}

// The README's workflow checks out the full history (freshness is judged
// by commit times; a shallow clone cannot judge it) and runs on a change
// to any file that can change the verdict: the charters of every family,
// the configuration and the default source folder.
func TestReadmeWorkflowRecipe(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(readme), "# .github/workflows/charters.yml")
	recipe, _, _ := strings.Cut(rest, "```")
	if !strings.Contains(recipe, "fetch-depth: 0") {
		t.Errorf("the workflow's checkout is shallow (no fetch-depth: 0):\n%s", recipe)
	}
	var globs []string
	for _, line := range strings.Split(recipe, "\n") {
		if l, ok := strings.CutPrefix(strings.TrimSpace(line), "paths: "); ok {
			if err := json.Unmarshal([]byte(strings.ReplaceAll(l, "'", `"`)), &globs); err != nil {
				t.Fatalf("paths: %v", err)
			}
		}
	}
	for _, file := range []string{
		"docs/charter.md", ".rp1/context/charter.md", ".pi/charters/auth/criteria.md",
		".pi/charters/auth/work/m1/evidence/2026-11-10T12-00-00-000Z/evidence.json",
		".charters/20260101-000000-auth/state.json", ".charter-lsp.jsonc", "src/api/export.go",
	} {
		if !slices.ContainsFunc(globs, func(g string) bool { return actionsGlob(g).MatchString(file) }) {
			t.Errorf("a change to %s does not run the workflow (paths: %q)", file, globs)
		}
	}
}

// actionsGlob is a GitHub Actions paths pattern as a regexp: ** any
// folders, * anything but a slash.
func actionsGlob(g string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case g[i] == '*':
			b.WriteString("[^/]*")
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		}
	}
	return regexp.MustCompile(b.String() + "$")
}

// The README and the Makefile's help say the same time for make test.
func TestReadmeAndMakefileAgreeOnMakeTest(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	readme, _ := os.ReadFile(filepath.Join("..", "..", "README.md"))
	m := regexp.MustCompile(`## test:[^\n]*\n## \((?:about )?([^;)]*?) on a 2-core machine`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile's help for test names no time on a 2-core machine")
	}
	if !strings.Contains(string(readme), "takes "+string(m[1])+" on a 2-core machine") {
		t.Errorf("the Makefile says make test takes %q on a 2-core machine; the README does not say the same", m[1])
	}
}

// make release needs npm (vsce packs the .vsix): it says so before
// building anything, not halfway through.
func TestMakeReleaseSaysItNeedsNpm(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dist := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("make", "--no-print-directory", "release", "NPM=no-such-npm", "DIST="+dist)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "make release needs npm") {
		t.Errorf("make release without npm: %v\n%s", err, out)
	}
	if _, err := os.Stat(dist); err == nil {
		t.Error("it made dist/ before saying npm is missing")
	}
}

// The README's install line works on a machine without ~/.local/bin.
func TestReadmeInstallLineMakesTheFolder(t *testing.T) {
	line := readmeCommand(t, "tar -xzf charter-lsp_")
	_, install, ok := strings.Cut(line, "&& ")
	if !ok {
		t.Fatalf("no install step in %q", line)
	}
	if !strings.Contains(install, "mkdir -p ~/.local/bin") && !strings.Contains(install, "install -D") {
		t.Errorf("%q fails when ~/.local/bin does not exist", install)
	}
}

// The README names every command of the CLI and every key of the
// configuration.
func TestReadmeNamesEveryCommandAndKey(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands {
		if !strings.Contains(string(readme), "charter-lsp "+c.name) {
			t.Errorf("the README does not name charter-lsp %s", c.name)
		}
	}
	cfg, err := json.Marshal(analysis.Config{}.Effective())
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	json.Unmarshal(cfg, &keys)
	keys["severity"] = nil
	for k := range keys {
		if !strings.Contains(string(readme), `"`+k+`"`) {
			t.Errorf("the README's configuration does not show the key %q", k)
		}
	}
}
