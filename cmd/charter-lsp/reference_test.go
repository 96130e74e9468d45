package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// docs/cli.md, the man page and the shell completions are generated from
// the flag definitions; this test fails when a flag changes without them.
// CLI_REFERENCE_WRITE=1 (what gendocs sets) rewrites them.
func TestCLIReferenceInStep(t *testing.T) {
	ms := models()
	for name, want := range map[string]string{
		"docs/cli.md":                      cliReference(),
		"docs/charter-lsp.1":               manPage(ms),
		"docs/completion/charter-lsp.bash": bashCompletion(ms),
		"docs/completion/_charter-lsp":     zshCompletion(ms),
		"docs/completion/charter-lsp.fish": fishCompletion(ms),
	} {
		path := filepath.Join("..", "..", filepath.FromSlash(name))
		if os.Getenv("CLI_REFERENCE_WRITE") == "1" {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not in step with the flags: run go run ./internal/gendocs", name)
		}
	}
	want := cliReference()
	for _, c := range commands {
		if !strings.Contains(want, "## "+c.name+"\n\n```text\nUsage: charter-lsp "+c.name) {
			t.Errorf("the reference lacks %s's help", c.name)
		}
	}
}

// The README's command-line section names every flag the commands have,
// each with its double dash, or the reference it links does.
func TestReadmeDocumentsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	if i := strings.Index(section, "\n## Command line"); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[1:], "\n## "); j >= 0 {
			section = section[:j+1]
		}
	}
	if !strings.Contains(section, "docs/cli.md") {
		t.Error("the Command line section does not link docs/cli.md")
	}
	for _, c := range commands {
		for _, f := range flagsOf(t, c.name) {
			if !strings.Contains(section, dashed(f)) {
				t.Errorf("the README's Command line section does not mention %s's %s", c.name, dashed(f))
			}
		}
	}
}

// flagsOf lists the flags command name's help shows: the lines that
// start "  -" (ours: "  --name, --alias VALUE", Go's default: "  -name type").
func flagsOf(t *testing.T, name string) []string {
	t.Helper()
	var out strings.Builder
	run([]string{name, "-h"}, nil, &out, &out)
	var flags []string
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, "  -") {
			continue
		}
		for _, word := range strings.Fields(line) {
			if !strings.HasPrefix(word, "-") {
				break
			}
			if f := strings.TrimLeft(strings.TrimSuffix(word, ","), "-"); f != "h" && f != "help" && f != "version" && f != "V" {
				flags = append(flags, f)
			}
		}
	}
	if len(flags) == 0 && name != "version" && name != "completion" {
		t.Errorf("%s -h lists no flag", name)
	}
	return flags
}

// The bash completion completes commands, flags, a flag's values and
// codes as a user tabbing through sees them; the zsh and fish scripts
// parse (where those shells are installed); `completion SHELL` prints the
// committed script.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range shells {
		out, _, code := cli(t, t.TempDir(), "", "completion", sh)
		want, _ := os.ReadFile(filepath.Join("..", "..", "docs", "completion", map[string]string{"bash": "charter-lsp.bash", "zsh": "_charter-lsp", "fish": "charter-lsp.fish"}[sh]))
		if code != 0 || out != string(want) {
			t.Errorf("completion %s: exit %d, or not the committed script", sh, code)
		}
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := filepath.Join("..", "..", "docs", "completion", "charter-lsp.bash")
	complete := func(words ...string) string {
		t.Helper()
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := fmt.Sprintf("source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _charter_lsp; echo \"${COMPREPLY[*]}\"", script, strings.Join(quoted, " "), len(words)-1)
		out, err := exec.Command("bash", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", words, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"charter-lsp", "ch"}, "check"},
		{[]string{"charter-lsp", "check", "--format", ""}, "text json sarif github"},
		{[]string{"charter-lsp", "check", "-f", "s"}, "sarif"},
		{[]string{"charter-lsp", "check", "--unsafe"}, "--unsafe-fixes"},
		{[]string{"charter-lsp", "explain", "stale-ev"}, "stale-evidence"},
		{[]string{"charter-lsp", "interview", "x.md", "--mode", "U"}, "UPDATE"},
		{[]string{"charter-lsp", "init", "--charter", ""}, "rp1 charters pi"},
		{[]string{"charter-lsp", "completion", "f"}, "fish"},
	} {
		if got := complete(c.words...); got != c.want {
			t.Errorf("%v: %q, want %q", c.words, got, c.want)
		}
	}
	for _, sh := range []struct{ shell, file string }{{"zsh", "_charter-lsp"}, {"fish", "charter-lsp.fish"}} {
		if _, err := exec.LookPath(sh.shell); err != nil {
			continue
		}
		if out, err := exec.Command(sh.shell, "-n", filepath.Join("..", "..", "docs", "completion", sh.file)).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", sh.shell, err, out)
		}
	}
}

// The man page is roff groff reads without a warning, and it names every
// command and flag.
func TestManPage(t *testing.T) {
	page := manPage(models())
	for _, c := range commands {
		if !strings.Contains(page, roff("charter-lsp "+c.name+" ")) {
			t.Errorf("the man page lacks %s", c.name)
		}
		for _, f := range flagsOf(t, c.name) {
			if !strings.Contains(page, roff(dashed(f))) && !strings.Contains(page, "\\fB"+roff(dashed(f))) {
				t.Errorf("the man page lacks %s's %s", c.name, dashed(f))
			}
		}
	}
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("no groff")
	}
	cmd := exec.Command("groff", "-k", "-man", "-Tutf8", "-ww", "-z") // -k: UTF-8 input, as man-db reads pages
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff: %v\n%s", err, out)
	}
}
