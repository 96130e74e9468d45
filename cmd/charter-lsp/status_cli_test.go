package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// A VAL id written twice is read as upstream reads it, the first block:
// the text dashboard shows that block's title wherever the id is listed,
// the JSON's next action runs that block's command, and neither shows the
// later block's title or verifier as the VAL's.
func TestStatusRepeatedIDShowsTheFirstBlock(t *testing.T) {
	project, _ := testfixture.RepeatedVAL(t)
	out, errOut, code := cli(t, project, "", "status", "--now", "2026-11-13T12:00:00Z")
	if code != 0 {
		t.Fatalf("status: exit %d, %s", code, errOut)
	}
	if strings.Contains(out, testfixture.RepeatedLaterTitle) || strings.Count(out, testfixture.RepeatedFirstTitle) != 2 {
		t.Errorf("the text shows the later block of VAL-T-001, or not the first wherever the id is listed:\n%s", out)
	}
	out, errOut, code = cli(t, project, "", "status", "--format", "json", "--now", "2026-11-13T12:00:00Z")
	var sts []struct {
		ValTotal int `json:"valTotal"`
		Criteria []struct {
			CriterionID string `json:"criterionId"`
			Title       string `json:"title"`
			Verifier    string `json:"verifier"`
		} `json:"criteria"`
		NextActions []struct {
			CLI      string         `json:"cli"`
			Metadata map[string]any `json:"metadata"`
		} `json:"nextActions"`
	}
	if err := json.Unmarshal([]byte(out), &sts); err != nil || code != 0 || len(sts) != 1 {
		t.Fatalf("status --format json: exit %d, %v, %s", code, err, errOut)
	}
	st := sts[0]
	if st.ValTotal != 3 || len(st.Criteria) != 3 { // upstream counts every parsed VAL
		t.Errorf("valTotal %d, %d criteria; want 3 (every block, as upstream counts)", st.ValTotal, len(st.Criteria))
	}
	for _, v := range st.Criteria {
		if v.CriterionID == "VAL-T-001" {
			if v.Title != testfixture.RepeatedFirstTitle || v.Verifier != "command" {
				t.Errorf("the first VAL-T-001 in criteria is %q (%s), not the block upstream reads", v.Title, v.Verifier)
			}
			break
		}
	}
	var recorded bool
	for _, a := range st.NextActions {
		if a.Metadata["criterionId"] == "VAL-T-001" {
			recorded = true
			if a.Metadata["verifier"] != "command" || !strings.Contains(a.CLI, "charter-lsp verify VAL-T-001") {
				t.Errorf("VAL-T-001's next action is the later block's: %s %v", a.CLI, a.Metadata)
			}
		}
	}
	if !recorded {
		t.Errorf("no next action for VAL-T-001: %+v", st.NextActions)
	}
}
