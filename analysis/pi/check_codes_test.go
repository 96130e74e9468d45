package pi

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

const okRow = `{"criterionId":"VAL-A-001","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00.000Z"}`

// milestone wraps VAL bodies in a three-VAL milestone so milestone-size stays quiet.
func milestone(first string) string {
	return "## m1 One\n" + first + "\n### VAL-A-002 Two\nVerifier: hook\n### VAL-A-003 Three\nVerifier: hook\n"
}

// runCheck writes files (paths relative to the charter dir; "../../../x"
// reaches the project) and returns the codes found, the sources dated by
// clock (nil: the default clock, reading the project's files).
func runCheck(t *testing.T, files map[string]string, clock SourceClock) map[string]int {
	t.Helper()
	project := t.TempDir()
	dir := filepath.Join(project, ".pi", "charters", "c")
	for name, content := range files {
		mustWrite(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	if clock == nil {
		clock = NewSourceClock("", vfs.OS, nil)
	}
	codes := map[string]int{}
	for _, ds := range Check(context.Background(), NewView(vfs.OS, LoadDir(vfs.OS, dir), clock), Options{}) {
		for _, d := range ds {
			codes[d.Code.String()]++
		}
	}
	return codes
}

// viewOf is d viewed as the workspace views it, its sources dated by the
// default clock.
func viewOf(fsys vfs.FS, d *Dir) *View { return NewView(fsys, d, NewSourceClock("", fsys, nil)) }

// noSources is the clock of a project without sources: nothing is stale.
type noSources struct{}

func (noSources) Newest(string) (SourceChange, bool) { return SourceChange{}, false }

// fixedClock is a clock with one answer.
type fixedClock SourceChange

func (c fixedClock) Newest(string) (SourceChange, bool) { return SourceChange(c), true }

// TestEveryCodeTriggersAndNearMisses gives each pi code one fixture that
// triggers it and one near-miss that does not.
func TestEveryCodeTriggersAndNearMisses(t *testing.T) {
	val := func(body string) map[string]string {
		return map[string]string{"criteria.md": milestone("### VAL-A-001 One\n" + body)}
	}
	shallow := fixedClock{Time: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), Shallow: true}
	cases := []struct {
		code          string
		trigger, miss map[string]string
	}{
		{"malformed-command", map[string]string{"charter.md": "## Commands\nlint go vet\n"}, map[string]string{"charter.md": "## Commands\nlint: go vet\n"}},
		{"duplicate-command", map[string]string{"charter.md": "## Commands\ntest: a\nTEST: b\n"}, map[string]string{"charter.md": "## Commands\ntest: a\ntest2: b\n"}},
		{"missing-verifier", val("Command: x\n"), val("Verifier: hook\n")},
		{"missing-because", val("Verifier: manual\n"), val("Verifier: manual\nBecause: a person checks the dashboard\n")},
		{"invalid-verifier", val("Verifier: subagent\nAgent: qa\n"), val("Verifier: subagent\nAgent: qa\nTask: review\n")},
		{"weak-verifier-phrase-coupled", val("Verifier: command\nCommand: vitest -t login\n"), val("Verifier: command\nCommand: vitest tests/login.test.ts -t login\n")},
		{"weak-verifier-title-filter", val("Verifier: command\nCommand: go test -run TestLogin ./auth\n"), val("Verifier: command\nCommand: go test ./auth\n")},
		{"val-id-invalid", map[string]string{"criteria.md": milestone("### VAL-a-001 One\nVerifier: hook")}, map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook")}},
		{"val-id-greedy", map[string]string{"criteria.md": milestone("### VAL-A-001-One\nVerifier: hook")}, map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook")}},
		{"duplicate-val-id", map[string]string{"criteria.md": milestone("### VAL-A-002 Dup\nVerifier: hook")}, map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook")}},
		{"field-not-parsed", val("Verifier: hook\n**Because:** bold\n"), val("Verifier: hook\nBecause: plain\n")},
		{"val-under-h1", map[string]string{"criteria.md": "# Criteria\n### VAL-Z-001 Lost\nVerifier: hook\n" + milestone("### VAL-A-001 One\nVerifier: hook")}, map[string]string{"criteria.md": "# Criteria\n" + milestone("### VAL-Z-001 Kept\nVerifier: hook")}},
		{"val-nested", map[string]string{"criteria.md": "## VAL-T-001 Top\nVerifier: hook\n### VAL-T-002 Nested\n"}, map[string]string{"criteria.md": "## VAL-T-001 Top\nVerifier: hook\n## VAL-T-002 Also top\nVerifier: hook\n"}},
		{"field-key-typo", val("Verifer: hook\n"), val("Verifier: hook\nNote: prose that is not a key\n")},
		{"val-title-task", map[string]string{"criteria.md": milestone("### VAL-A-001 Implement login\nVerifier: hook")}, map[string]string{"criteria.md": milestone("### VAL-A-001 Login issues a token\nVerifier: hook")}},
		{"milestone-size", map[string]string{"criteria.md": "## m1 Small\n### VAL-A-001 One\nVerifier: hook\n"}, val("Verifier: hook\n")},
		{"legacy-criteria", map[string]string{"charter.md": "## Criteria\n### VAL-L-001 Legacy\nVerifier: hook\n"}, map[string]string{"charter.md": "## Objective\nx\n"}},
		{"criteria-scaffold", map[string]string{"charter.md": "## Objective\nx\n", "criteria.md": "## m0-example Example\n### VAL-EXAMPLE Example\nVerifier: command\n"},
			map[string]string{"charter.md": "## Objective\nx\n", "criteria.md": "## m0-example Example\n### VAL-EXAMPLE Example\nVerifier: command\n### VAL-A1 Real\nVerifier: hook\n"}},
		{"fresh-since-loose", val("Verifier: evidence-exists\nKind: review\nFreshSince: Nov 2026\n"), val("Verifier: evidence-exists\nKind: review\nFreshSince: 2026-11-01\n")},
		{"evidence-invalid", map[string]string{"work/_charter/evidence/s/evidence.json": `{"criterionId":"VAL-A-001","outcome":"ok","summary":"s","ts":"2026-01-01T00:00:00Z"}`}, map[string]string{"work/_charter/evidence/s/evidence.json": okRow}},
		{"evidence-missing-because", map[string]string{"work/_charter/evidence/s/evidence.json": `{"criterionId":"VAL-A-001","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00Z","source":"manual"}`}, map[string]string{"work/_charter/evidence/s/evidence.json": `{"criterionId":"VAL-A-001","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00Z","source":"manual","because":"watched it"}`}},
		{"evidence-unknown-val", map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook"), "work/_charter/evidence/s/evidence.json": strings.Replace(okRow, "VAL-A-001", "VAL-B-001", 1)}, map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook"), "work/_charter/evidence/s/evidence.json": okRow}},
		{"criterion-state-drift", map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook"), "work/_charter/evidence/s/evidence.json": okRow,
			"criterion-state.json": `{"charterId":"c","criteria":{"VAL-A-001":{"outcome":"fail","lastEvidencePath":"work/_charter/evidence/s/evidence.json","lastTs":"2025-12-01T00:00:00.000Z","lastSummary":"s"}}}`},
			map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook"), "work/_charter/evidence/s/evidence.json": okRow,
				"criterion-state.json": `{"charterId":"c","criteria":{"VAL-A-001":{"outcome":"pass","lastEvidencePath":"work/_charter/evidence/s/evidence.json","lastTs":"2026-01-01T00:00:00.000Z","lastSummary":"s"}}}`}},
		{"json-invalid", map[string]string{"state.json": `{"charterId": }`}, map[string]string{"state.json": `{"charterId":"c","status":"active"}`}},
		{"report-empty-section", map[string]string{"REPORT.md": "# R\n## Objective\nx\n## Outcome\n<!-- todo -->\n## Notes\nn\n"}, map[string]string{"REPORT.md": "# R\n## Objective\nx\n## Outcome\nshipped\n## Notes\nn\n"}},
		{"report-missing-section", map[string]string{"REPORT.md": "# R\n## Objective\nx\n## Outcome\ny\n"}, map[string]string{"REPORT.md": "# R\n## Objective\nx\n## Outcome\ny\n## Notes\nz\n"}},
		{"stale-evidence", map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: true"), "work/_charter/evidence/s/evidence.json": okRow, "../../../src/a.go": "package a"},
			map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: false"), "work/_charter/evidence/s/evidence.json": okRow, "../../../src/a.go": "package a"}},
		// A shallow clone's last commit (2026-02-01) dates the sources:
		// a pass before it cannot be judged, one after it is fresh.
		{"freshness-unknown", map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: true"), "work/_charter/evidence/s/evidence.json": okRow},
			map[string]string{"criteria.md": milestone("### VAL-A-001 One\nVerifier: hook\nRequireFreshEvidence: true"), "work/_charter/evidence/s/evidence.json": strings.Replace(okRow, "2026-01-01", "2026-03-01", 1)}},
	}
	clocks := map[string]SourceClock{"freshness-unknown": shallow} // for both (default: the files' own)
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.code] = true
		t.Run(c.code, func(t *testing.T) {
			if got := runCheck(t, c.trigger, clocks[c.code]); got[c.code] == 0 {
				t.Errorf("trigger: %s not reported; got %v", c.code, got)
			}
			if got := runCheck(t, c.miss, clocks[c.code]); got[c.code] != 0 {
				t.Errorf("near-miss: %s reported; got %v", c.code, got)
			}
		})
	}
	for _, r := range diag.Rules {
		switch r.Family {
		case "charter", "criteria", "verifier", "evidence", "report":
			if !covered[r.Name] {
				t.Errorf("code %s (family %s) has no trigger/near-miss case", r.Code, r.Family)
			}
		}
	}
}
