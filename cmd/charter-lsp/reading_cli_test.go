package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// readingProject holds one file of each kind whose generation takes some
// deciding: an rp1 charter with a **Version** line beside skeleton
// regions (the mkdn shape), a current Objective-only charter with a
// "## Phase 1:" heading, and an ADR-0014 charter with a Status: line of
// prose whose state.json snapshot says ADR-0014.
var readingProject = map[string]string{
	".rp1/context/charter.md": "# Project Charter: quillmark\n**Version**: 1.0.0 | **Status**: Draft\n\n## Vision\nA calm notes app.\n\n" +
		"## Scope Guardrails\n### Will Do\n- Open folders\n### Won't Do\n- Sync\n",
	".charters/20261020-090000-onboarding/charter.md":   "# Objective\nCut onboarding to three screens.\n\n## Phase 1: discovery\nInterview five users.\n",
	".charters/20261020-090000-onboarding/state.json":   `{"charterId":"20261020-090000-onboarding","schemaVersion":"phases","objective":"Cut onboarding","status":"active"}`,
	".charters/20260702-101500-export/charter.md":       "## Objective\nMove export off the request path.\nStatus: agreed on 2026-07-01.\n\n## Criteria\n### C1. Runs on the worker\nEvidence: pass — 12/12\n",
	".charters/20260702-101500-export/state.json":       `{"charterId":"20260702-101500-export","schemaVersion":"file-interface","objective":"Move export","status":"active","criteriaSnapshot":[{"id":"C1","title":"Runs on the worker","depends":[],"evidence":{"status":"pass","note":"12/12"},"evidenceSeq":1}]}`,
	".charters/20260702-101500-export/events.jsonl":     "",
	".charters/20261020-090000-onboarding/events.jsonl": "",
}

// check --verbose says, on stderr, which generation each charter file was
// read as and why; the diagnostics on stdout are those of that reading.
func TestCheckVerboseSaysTheReading(t *testing.T) {
	dir := t.TempDir()
	testfixture.WriteFiles(t, dir, readingProject)
	out, errOut, code := cli(t, dir, "", "check", "--verbose")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		".rp1/context/charter.md: read as rp1's skeleton charter",
		"because line 4: `## Vision`, a region of rp1's skeleton charter",
		"despite line 2: `**Version**`",
		".charters/20261020-090000-onboarding/charter.md: read as Objective only (ADR-0018)",
		`("## Phase 1: discovery" is not one, and is read as ordinary text)`,
		".charters/20260702-101500-export/charter.md: read as file interface, Evidence lines (ADR-0014)",
		"because state.json:1: criteriaSnapshot entries in ADR-0014's shape",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, want := range []string{"generation-conflict", "region-heading-variant"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}
	for _, never := range []string{"phases-section-missing", "criterion-status-missing"} {
		if strings.Contains(out, never) {
			t.Errorf("stdout holds %s:\n%s", never, out)
		}
	}
	// Without --verbose, stderr is the summary alone.
	if _, errOut, _ := cli(t, dir, "", "check"); strings.Count(errOut, "\n") != 1 {
		t.Errorf("check without --verbose: stderr %q", errOut)
	}
}

// status says the reading too: a block in the text, readAs in the JSON.
func TestStatusSaysTheReading(t *testing.T) {
	dir := t.TempDir()
	testfixture.WriteFiles(t, dir, readingProject)
	out, _, code := cli(t, dir, "", "status", filepath.Join(".charters", "20260702-101500-export"))
	if code != 0 || !strings.Contains(out, "Read as this generation because\n  - state.json:1: schemaVersion \"file-interface\"") ||
		!strings.Contains(out, "criteriaSnapshot entries in ADR-0014's shape") || !strings.Contains(out, "  Otherwise: ") {
		t.Errorf("status text (exit %d):\n%s", code, out)
	}
	out, _, code = cli(t, dir, "", "status", "--format", "json")
	var sts []struct {
		CharterID string `json:"charterId"`
		ReadAs    *struct {
			Generation string   `json:"generation"`
			Reasons    []string `json:"reasons"`
			Otherwise  string   `json:"otherwise"`
		} `json:"readAs"`
	}
	if err := json.Unmarshal([]byte(out), &sts); err != nil || code != 0 || len(sts) != 2 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	want := map[string]string{"20261020-090000-onboarding": "objective", "20260702-101500-export": "fi14"}
	for _, st := range sts {
		if st.ReadAs == nil || st.ReadAs.Generation != want[st.CharterID] || len(st.ReadAs.Reasons) < 2 || st.ReadAs.Otherwise == "" {
			t.Errorf("%s: readAs %+v, want generation %s with reasons", st.CharterID, st.ReadAs, want[st.CharterID])
		}
	}
}
