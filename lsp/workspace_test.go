package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

func TestConfigPrecedence(t *testing.T) {
	root := t.TempDir()
	// The project file allows comments and trailing commas.
	writeFile(t, filepath.Join(root, ".charter-lsp.jsonc"), `{
		// project defaults
		"questionBudget": 3,
		"freshness": "git",
		"sourceDirs": ["lib"], /* overridden by the editor below */
		"debounceMs": 500,
	}`)
	c := lsptest.Start(t, lsptest.Config{
		Root:                  root,
		InitializationOptions: map[string]any{"questionBudget": 4, "debounceMs": 0},
		Settings:              map[string]any{"sourceDirs": []string{"src", "pkg"}, "editorOnlyKey": true},
	})
	got := c.LSP.Config()
	if got.QuestionBudget != 4 || got.Freshness != "git" || !slices.Equal(got.SourceDirs, []string{"src", "pkg"}) || got.DebounceMs == nil || *got.DebounceMs != 0 {
		t.Fatalf("config = %+v (debounce %v): want budget 4 from initializationOptions, git from the project file, sourceDirs from settings, debounce 0", got, got.DebounceMs)
	}

	// The check reads it: a scratch pad of eight questions is over a
	// budget of 4 at Q5, and the diagnostic names the budget.
	pad := "# Project Charter: X\n\n## Scratch Pad\n\n"
	for i, topic := range []string{"Brain Dump", "Target Users", "Value Proposition", "Scope", "Success Criteria", "Risks", "Timeline", "Team"} {
		pad += fmt.Sprintf("### Q%d: %s\n**Asked**: a?\n**Answer**: b.\n\n", i+1, topic)
	}
	u := c.Open(".rp1/context/charter.md", pad+"<!-- End scratch pad -->\n")
	overBudget := func(p lsptest.Published) string {
		for _, d := range p.Params.Diagnostics {
			if d.Code == protocol.String("scratchpad-over-budget") {
				return fmt.Sprint(d.Message)
			}
		}
		return ""
	}
	if msg := overBudget(c.WaitDiagnostics(u, 1)); !strings.HasPrefix(msg, "Q5 is beyond the question budget of 4,") {
		t.Errorf("the check's budget: %q, want initializationOptions' 4", msg)
	}

	// didChangeConfiguration pulls the settings again and re-checks.
	c.SetSettings(map[string]any{"questionBudget": 7})
	c.Sync()
	pubs := c.Published(u)
	if msg := overBudget(pubs[len(pubs)-1]); !strings.HasPrefix(msg, "Q8 is beyond the question budget of 7,") {
		t.Errorf("after didChangeConfiguration, the check's budget: %q, want 7", msg)
	}
	if got := c.LSP.Config(); !slices.Equal(got.SourceDirs, []string{"lib"}) {
		t.Errorf("after didChangeConfiguration, sourceDirs %v, want the project file's", got.SourceDirs)
	}

	// An invalid setting is left out with a warning; the others apply (the
	// project file's freshness stays), and an out-of-range one is clamped.
	c.SetSettings(map[string]any{"questionBudget": 80, "freshness": "sometimes", "severity": map[string]string{"val-title-task": "off", "no-such-code": "error"}})
	c.Sync()
	if got := c.LSP.Config(); got.QuestionBudget != 50 || got.Freshness != "git" || got.Severity["val-title-task"] != "off" {
		t.Errorf("settings with bad values: %+v", got)
	}
	if msgs := c.Messages(); len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1].Message, "freshness") || !strings.Contains(msgs[len(msgs)-1].Message, "no-such-code") || !strings.Contains(msgs[len(msgs)-1].Message, "questionBudget") {
		t.Errorf("the user was not told which settings were adjusted: %+v", msgs)
	}

	// A change of the project file on disk is picked up.
	writeFile(t, filepath.Join(root, ".charter-lsp.jsonc"), `{"freshness": "mtime", "questionBudget": 2}`)
	c.FilesChanged(protocol.FileChangeTypeChanged, ".charter-lsp.jsonc")
	c.Sync()
	if got := c.LSP.Config(); got.Freshness != "mtime" {
		t.Errorf("after the project file changed, freshness = %q", got.Freshness)
	}
}

func TestCharterDirectoryIsRecheckedTogether(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	c.WriteFile("src/auth/token.go", "package auth\n")
	criteria := c.Open(".pi/charters/auth/criteria.md", "# Criteria\nTODO\n")
	c.Open(".pi/charters/auth/charter.md", "# Charter\n")
	c.Open(".pi/charters/other/criteria.md", "# Other\n")
	c.Open(".rp1/context/charter.md", "# rp1\n")
	c.Sync()

	// Editing criteria.md re-checks charter.md of the same directory (the
	// server's count of file checks, Server.Checks).
	chk2 := c.LSP.Checks
	n := chk2()
	c.Change(criteria, 2, lsptest.Edit{StartLine: 2, Text: "TODO\n"})
	c.Sync()
	if got := chk2() - n; got != 2 {
		t.Errorf("editing criteria.md ran %d checks, want 2 (criteria.md and charter.md of the same directory)", got)
	}

	// A source file change on disk re-checks the pi charters of that project,
	// not the rp1 charter.
	n = chk2()
	c.WriteFile("src/auth/token.go", "package auth // changed\n")
	c.FilesChanged(protocol.FileChangeTypeChanged, "src/auth/token.go")
	c.Sync()
	if got := chk2() - n; got != 3 {
		t.Errorf("a source change ran %d checks, want 3 (the pi-charter documents)", got)
	}

	// An evidence file of one charter re-checks only that charter.
	n = chk2()
	c.FilesChanged(protocol.FileChangeTypeCreated, ".pi/charters/other/work/m1/evidence/2026-01-01T00-00-00-000Z/evidence.json")
	c.Sync()
	if got := chk2() - n; got != 1 {
		t.Errorf("an evidence change ran %d checks, want 1", got)
	}
}

func TestOverlayWinsOverDisk(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, filepath.FromSlash(probeFile)), probeHead+"on disk")
	c := lsptest.Start(t, lsptest.Config{Root: root, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(probeFile, probeHead+"in the editor")
	if got := checkedIn(c.WaitDiagnostics(u, 1)); !slices.Equal(got, []string{"in the editor"}) {
		t.Errorf("checked %q, want the open document's text", got)
	}
}

func TestInsideFolders(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(target, name string) string {
		p := filepath.Join(ws, name)
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
		return p
	}
	escape := link(outside, "escape")
	inner := link(filepath.Join(ws, "docs"), "inner")
	dangling := link(filepath.Join(outside, "missing"), "dangling")

	tests := []struct {
		path string
		want bool
	}{
		{ws, true},
		{filepath.Join(ws, "docs", "charter.md"), true},
		{filepath.Join(ws, "new", "dir", "evidence.json"), true}, // not created yet
		{filepath.Join(ws, "..", "elsewhere.md"), false},
		{filepath.Join(ws, "docs", "..", "..", "x"), false},
		{root, false},
		{filepath.Join(escape, "charter.md"), false}, // a link out of the workspace
		{filepath.Join(inner, "charter.md"), true},   // a link within it
		{filepath.Join(dangling, "x.json"), false},
		{"relative/path.md", false},
		{outside, false},
	}
	for _, tt := range tests {
		if got := lsp.InsideFolders(tt.path, []string{ws}); got != tt.want {
			t.Errorf("InsideFolders(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
	// Through a session's workspace folders.
	c := lsptest.Start(t, lsptest.Config{Root: ws})
	if !c.LSP.InWorkspace(filepath.Join(ws, "charter.md")) || c.LSP.InWorkspace(filepath.Join(escape, "x")) {
		t.Errorf("InWorkspace disagrees with InsideFolders")
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
