package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// status takes sourceDirs and freshness from .charter-lsp.jsonc as check
// does; --config replaces the project file, and --src / --freshness win
// over both.
func TestStatusHonoursConfig(t *testing.T) {
	project, _ := testfixture.PiProject(t) // VAL-SESS-001's pass predates src/auth/token.go
	stale := func(args ...string) []string {
		t.Helper()
		out, errOut, code := cli(t, project, "", append([]string{"status", "--format", "json", "--now", "2026-11-13T12:00:00Z"}, args...)...)
		var sts []struct {
			Drift struct {
				Stale []struct{ CriterionID string } `json:"stale"`
			} `json:"drift"`
		}
		if err := json.Unmarshal([]byte(out), &sts); err != nil || code != 0 {
			t.Fatalf("%v: exit %d, %v, %s", args, code, err, errOut)
		}
		var ids []string
		for _, s := range sts[0].Drift.Stale {
			ids = append(ids, s.CriterionID)
		}
		return ids
	}
	if got := stale(); len(got) != 1 || got[0] != "VAL-SESS-001" {
		t.Fatalf("default src/: stale %v", got)
	}
	os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte(`{
	  // the sources live elsewhere
	  "sourceDirs": ["lib"],
	}`), 0o644)
	if got := stale(); len(got) != 0 {
		t.Errorf("sourceDirs [lib] (no such folder) in .charter-lsp.jsonc: stale %v", got)
	}
	if got := stale("--src", "src"); len(got) != 1 {
		t.Errorf("--src src over the project file: stale %v", got)
	}
	explicit := filepath.Join(t.TempDir(), "ci.jsonc")
	os.WriteFile(explicit, []byte(`{"sourceDirs": ["src"]}`), 0o644)
	if got := stale("--config", explicit); len(got) != 1 {
		t.Errorf("--config with src over the project file: stale %v", got)
	}
	os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte(`{"freshness": "git"}`), 0o644)
	if got := stale(); len(got) != 1 { // not a git repository: git falls back to file times
		t.Errorf("freshness git in .charter-lsp.jsonc outside a repository: stale %v", got)
	}
	if got := stale("--freshness", "mtime"); len(got) != 1 {
		t.Errorf("--freshness mtime over the project file: stale %v", got)
	}
	os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte(`{"freshness": "ctime"}`), 0o644)
	if _, errOut, code := cli(t, project, "", "status"); code != 2 || errOut == "" {
		t.Errorf("a bad project file: exit %d, %q", code, errOut)
	}
}
