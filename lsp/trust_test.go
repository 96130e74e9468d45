package lsp_test

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// In Restricted Mode (the editor says "restricted": true) a project file
// sets only what cannot widen what the server does — severities and the
// question budget; its freshness, source folders and debounce are ignored,
// said once, and apply as soon as the workspace is trusted.
func TestRestrictedModeIgnoresWideningProjectSettings(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{".charter-lsp.jsonc": `{
		"freshness": "git", "sourceDirs": ["lib"], "debounceMs": 5000,
		"severity": {"stale-evidence": "error"}, "questionBudget": 3 }`})
	c := lsptest.Start(t, lsptest.Config{Root: root, Capabilities: editorCaps(),
		InitializationOptions: map[string]any{"restricted": true},
		Settings:              map[string]any{"restricted": true}})
	cfg := c.LSP.Config()
	if cfg.Freshness != "" || cfg.SourceDirs != nil || cfg.DebounceMs != nil {
		t.Errorf("restricted: freshness %q, sourceDirs %v, debounce %v applied from the project file", cfg.Freshness, cfg.SourceDirs, cfg.DebounceMs)
	}
	if cfg.Severity["stale-evidence"] != "error" || cfg.Budget() != 3 {
		t.Errorf("restricted: severity %v, budget %d: the harmless keys were dropped too", cfg.Severity, cfg.Budget())
	}
	// Said once, however often the file is read again.
	c.SetSettings(map[string]any{"restricted": true})
	c.Sync()
	var said []string
	for _, m := range c.Messages() {
		if strings.Contains(m.Message, "not trusted") {
			said = append(said, m.Message)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "sourceDirs, freshness, debounceMs") {
		t.Errorf("messages about ignored keys: %q, want one naming them", said)
	}

	// Trusted: the project file applies in full.
	c.SetSettings(map[string]any{"restricted": false})
	c.Sync()
	if cfg := c.LSP.Config(); cfg.Freshness != "git" || len(cfg.SourceDirs) != 1 || cfg.DebounceMs == nil {
		t.Errorf("trusted: %+v", cfg)
	}
}

// An editor that says nothing about trust (Neovim, any other client) is
// trusted, as before: the project file applies in full.
func TestNoTrustWordMeansTrusted(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, map[string]string{".charter-lsp.jsonc": `{"freshness": "git"}`})
	c := lsptest.Start(t, lsptest.Config{Root: root})
	if got := c.LSP.Config().Freshness; got != "git" {
		t.Errorf("freshness = %q", got)
	}
}
