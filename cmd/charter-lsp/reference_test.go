package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/cli.md is generated from the flag definitions; this test fails when
// a flag changes without it. CLI_REFERENCE_WRITE=1 (what gendocs sets)
// rewrites it.
func TestCLIReferenceInStep(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "cli.md")
	want := cliReference()
	if os.Getenv("CLI_REFERENCE_WRITE") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/cli.md is not in step with the flags: run go run ./internal/gendocs")
	}
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
	if len(flags) == 0 && name != "version" {
		t.Errorf("%s -h lists no flag", name)
	}
	return flags
}
