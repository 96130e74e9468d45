package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// checkJSON runs `check --format json` in dir and decodes the result.
func checkJSON(t *testing.T, dir string, args ...string) ([]jsonDiag, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := inDir(t, dir, func() int {
		return run(append([]string{"check", "--format", "json"}, args...), nil, &out, &errOut)
	})
	var ds []jsonDiag
	if err := json.Unmarshal(out.Bytes(), &ds); err != nil {
		t.Fatalf("check output is not JSON: %v\n%s\nstderr: %s", err, out.String(), errOut.String())
	}
	return ds, code
}

type jsonDiag struct {
	File  string `json:"file"`
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Source   string `json:"source"`
	Message  string `json:"message"`
}

func inDir(t *testing.T, dir string, f func() int) int {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	return f()
}

// found lists "file:line code" (1-based lines), sorted.
func found(ds []jsonDiag) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.File+":"+strconv.Itoa(d.Range.Start.Line+1)+" "+d.Code)
	}
	sort.Strings(out)
	return out
}

// The fixtures README lists what a careful reader finds in pi-project; check
// must report each of those problems at its place.
func TestCheckPiProjectFixture(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	ds, code := checkJSON(t, project)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (val-id-invalid and evidence-invalid are errors)", code)
	}
	const c = ".pi/charters/auth-rework/"
	want := []string{
		c + "charter.md:17 malformed-command",                                                       // "lint go vet ./..." has no colon
		c + "charter.md:18 duplicate-command",                                                       // repeated test key
		c + "criteria.md:5 stale-evidence",                                                          // VAL-SESS-001 pass predates src/
		c + "criteria.md:13 weak-verifier-phrase-coupled",                                           // VAL-SESS-002 bun test -t without a file
		c + "criteria.md:15 val-title-task",                                                         // VAL-SESS-003 "Implement …"
		c + "criteria.md:16 missing-because",                                                        // VAL-SESS-003 manual, no Because
		c + "criteria.md:18 missing-verifier",                                                       // VAL-SESS-004 bullets only
		c + "criteria.md:19 field-not-parsed",                                                       // - Verifier: subagent
		c + "criteria.md:20 field-not-parsed",                                                       // - Agent: qa
		c + "criteria.md:30 val-id-invalid",                                                         // VAL-roll-002
		c + "criteria.md:35 invalid-verifier",                                                       // commnad
		c + "REPORT.md:7 report-empty-section",                                                      // ## Outcome
		c + "REPORT.md:11 report-empty-section",                                                     // ## Notes
		c + "work/_charter/evidence/2026-11-12T16-30-00-000Z/evidence.json:11 evidence-unknown-val", // VAL-ROLL-009
		c + "work/_charter/evidence/2026-11-12T16-30-00-000Z/evidence.json:15 evidence-invalid",     // "confidence"
	}
	got := found(ds)
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("missing %s", w)
		}
	}
	for _, d := range ds {
		if d.Source != "charter" || d.Message == "" || d.Severity == "" {
			t.Errorf("diagnostic without source, message or severity: %+v", d)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", strings.Join(got, "\n"))
	}
}

func TestCheckRP1Fixtures(t *testing.T) {
	root := testfixture.Copy(t, ".")
	ds, code := checkJSON(t, root, "rp1-real")
	if len(ds) != 0 || code != 0 {
		t.Fatalf("rp1-real is a finished charter: got %v, exit %d", found(ds), code)
	}
	ds, _ = checkJSON(t, root, "rp1-interview")
	got := strings.Join(found(ds), "\n")
	for _, w := range []string{
		"rp1-interview/update-partial.md:4 status-complete-with-gaps", // Complete with TBD + empty section
		"rp1-interview/update-partial.md:19 section-empty",            // Business Rationale: only TBD
		"rp1-interview/update-partial.md:33 section-empty",            // Success Criteria has nothing
		"rp1-interview/create-after-brain-dump.md:1 section-covered-by-qa",
		"rp1-interview/create-after-brain-dump.md:1 section-missing",
		"rp1-interview/resume-after-q2.md:1 section-covered-by-qa",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %s", w)
		}
	}
	for _, d := range ds {
		if d.Code == "section-covered-by-qa" && d.Severity != "hint" {
			t.Errorf("a section the answers cover is a hint, not %s", d.Severity)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", got)
	}
}

func TestCheckConfigAndInlineDisable(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	count := func(ds []jsonDiag, code string) (n int, sev string) {
		for _, d := range ds {
			if d.Code == code {
				n++
				sev = d.Severity
			}
		}
		return
	}
	ds, _ := checkJSON(t, project)
	if n, _ := count(ds, "val-title-task"); n != 1 {
		t.Fatalf("baseline: %d val-title-task", n)
	}
	// Project file: switch one code off, raise another.
	cfg := `{
	  // project settings
	  "severity": {"val-title-task": "off", "stale-evidence": "error"},
	}`
	if err := os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, _ = checkJSON(t, project)
	if n, _ := count(ds, "val-title-task"); n != 0 {
		t.Error("severity off in .charter-lsp.jsonc did not remove val-title-task")
	}
	if n, sev := count(ds, "stale-evidence"); n != 1 || sev != "error" {
		t.Errorf("stale-evidence: %d at %q, want 1 error", n, sev)
	}
	// --config wins over the project file.
	explicit := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(explicit, []byte(`{"severity": {"stale-evidence": "hint"}}`), 0o644)
	ds, _ = checkJSON(t, project, "--config", explicit)
	if n, sev := count(ds, "stale-evidence"); n != 1 || sev != "hint" {
		t.Errorf("--config: stale-evidence %d at %q, want 1 hint", n, sev)
	}
	if n, _ := count(ds, "val-title-task"); n != 1 {
		t.Error("--config should replace the project file, not merge with it")
	}
	// Inline: disable the next line's code.
	criteria := filepath.Join(charter, "criteria.md")
	src, _ := os.ReadFile(criteria)
	patched := strings.Replace(string(src), "### VAL-SESS-002", "<!-- charter-lsp-disable-next-line weak-verifier-phrase-coupled -->\n### VAL-SESS-002", 1)
	patched = strings.Replace(patched, "Command: bun test", "<!-- charter-lsp-disable-next-line weak-verifier-phrase-coupled -->\nCommand: bun test", 1)
	os.WriteFile(criteria, []byte(patched), 0o644)
	os.Remove(filepath.Join(project, ".charter-lsp.jsonc"))
	ds, _ = checkJSON(t, project)
	if n, _ := count(ds, "weak-verifier-phrase-coupled"); n != 0 {
		t.Error("inline disable-next-line did not suppress weak-verifier-phrase-coupled")
	}
	if n, _ := count(ds, "missing-because"); n != 1 {
		t.Error("inline disable must not touch other codes")
	}
}

func TestCheckFormatsAndExitCodes(t *testing.T) {
	root := testfixture.Copy(t, ".")
	var out, errOut bytes.Buffer
	if code := inDir(t, root, func() int { return run([]string{"check", "rp1-interview/update-partial.md"}, nil, &out, &errOut) }); code != 0 {
		t.Fatalf("warnings only: exit %d, want 0", code)
	}
	first := strings.SplitN(out.String(), "\n", 2)[0]
	if !strings.HasPrefix(first, "rp1-interview/update-partial.md:4:1 warning status-complete-with-gaps ") {
		t.Errorf("text format line %q is not `file:line:col severity code message`", first)
	}
	out.Reset()
	if code := inDir(t, root, func() int { return run([]string{"check", "--format", "sarif", "pi-project"}, nil, &out, &errOut) }); code != 1 {
		t.Fatalf("sarif run exit %d, want 1", code)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }                 `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "charter-lsp" || len(log.Runs[0].Results) == 0 {
		t.Fatalf("not a SARIF 2.1.0 log: %s", out.String()[:200])
	}
	rules := log.Runs[0].Tool.Driver.Rules
	for _, r := range log.Runs[0].Results {
		if rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("ruleIndex %d points at %s, not %s", r.RuleIndex, rules[r.RuleIndex].ID, r.RuleID)
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.Region.StartLine < 1 || loc.Region.StartColumn < 1 || strings.HasPrefix(loc.ArtifactLocation.URI, "/") {
			t.Errorf("bad location %+v", loc)
		}
	}
	errOut.Reset()
	if code := run([]string{"check", "--format", "xml"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `invalid value "xml" for flag --format: want text, json, sarif or github`) {
		t.Errorf("bad format: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"check", filepath.Join(root, "no-such-file.md")}, nil, &out, &errOut); code != 2 {
		t.Errorf("missing path: exit %d, want 2", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonc")
	os.WriteFile(bad, []byte(`{"severity": {"nope": "off"}}`), 0o644)
	errOut.Reset()
	if code := run([]string{"check", "--config", bad, root}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `unknown diagnostic code "nope"`) {
		t.Errorf("bad config: exit %d, %q", code, errOut.String())
	}
}
