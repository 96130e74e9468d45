package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// `rules` lists every code of the catalogue, with its docs URL; `explain
// CODE` prints one code's entry: what triggers it, an example, the fix, its
// fix safety and the URL. Both in text and JSON, from analysis/diag.
func TestRulesAndExplain(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := cli(t, dir, "", "rules")
	if code != 0 {
		t.Fatalf("rules: exit %d %s", code, errOut)
	}
	for _, r := range diag.Rules {
		if !strings.Contains(out, r.Name+" ") {
			t.Errorf("rules lacks %s", r.Name)
		}
	}
	if !strings.Contains(out, diag.DocsURL) {
		t.Errorf("rules does not say where the docs are:\n%s", out)
	}
	out, _, code = cli(t, dir, "", "rules", "-f", "json")
	var all []diag.Description
	if err := json.Unmarshal([]byte(out), &all); err != nil || code != 0 || len(all) != len(diag.Rules) {
		t.Fatalf("rules -f json: exit %d, %v, %d of %d codes", code, err, len(all), len(diag.Rules))
	}
	for _, d := range all {
		if d.URL != diag.DocsURL+"#"+d.Code || d.Summary == "" || d.Severity == "" || d.Family == "" || d.HowToFix == "" {
			t.Errorf("rules -f json: incomplete entry %+v", d)
		}
	}

	out, _, code = cli(t, dir, "", "explain", "criterion-status-unknown")
	r := diag.CriterionStatusUnknown.Rule()
	for _, want := range []string{"criterion-status-unknown", r.Summary, "Default severity: warning", "Fix: safe or unsafe", diag.Docs[diag.CriterionStatusUnknown].Fix,
		diag.CriterionStatusUnknown.DocURL(), "upstream"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("explain: exit %d", code)
	}
	out, _, code = cli(t, dir, "", "explain", "stale-evidence", "--format", "json")
	var one diag.Description
	if err := json.Unmarshal([]byte(out), &one); err != nil || code != 0 || one != diag.Describe(diag.StaleEvidence) {
		t.Errorf("explain --format json: exit %d %v\n%s", code, err, out)
	}
	_, errOut, code = cli(t, dir, "", "explain", "stale-evidense")
	if code != 2 || !strings.Contains(errOut, `unknown code "stale-evidense" (did you mean stale-evidence?)`) {
		t.Errorf("explain of a misspelt code: exit %d %q", code, errOut)
	}
	if _, errOut, code := cli(t, dir, "", "explain"); code != 2 || !strings.Contains(errOut, "give one CODE") {
		t.Errorf("explain without a code: exit %d %q", code, errOut)
	}
}
