package pi

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// found renders diagnostics as "rel/path:line code «text at range»", sorted.
func found(t *testing.T, root string, m map[string][]diag.Diagnostic) []string {
	t.Helper()
	var out []string
	for file, ds := range m {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		for _, d := range ds {
			if d.File != file {
				t.Errorf("diagnostic in %s filed under %s", d.File, file)
			}
			out = append(out, fmt.Sprintf("%s:%d %s «%s»", filepath.ToSlash(rel), d.Range.Start.Line+1, d.Code, src[d.Span.Start:d.Span.End]))
		}
	}
	sort.Strings(out)
	return out
}

func setMtime(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

func TestCheckPiProjectFixture(t *testing.T) {
	project := testfixture.Copy(t, "pi-project")
	// The README: VAL-SESS-001's pass (2026-11-11T10:15Z) predates src/ when
	// token.go is newer.
	setMtime(t, filepath.Join(project, "src", "auth", "token.go"), time.Date(2026, 11, 12, 9, 0, 0, 0, time.UTC))
	d := LoadDir(vfs.OS, filepath.Join(project, ".pi", "charters", "auth-rework"))
	got := found(t, project, Check(context.Background(), viewOf(vfs.OS, d), Options{Now: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)}))
	const c = ".pi/charters/auth-rework/"
	want := []string{
		c + "REPORT.md:11 report-empty-section «## Notes»",
		c + "REPORT.md:7 report-empty-section «## Outcome»",
		c + "charter.md:17 malformed-command «lint go vet ./...»",
		c + "charter.md:18 duplicate-command «test»",
		c + "criteria.md:13 weak-verifier-phrase-coupled «bun test -t 'rejects expired token'»",
		c + "criteria.md:15 val-title-task «Implement token refresh endpoint»",
		c + "criteria.md:16 missing-because «Verifier: manual»",
		c + "criteria.md:18 missing-verifier «VAL-SESS-004»",
		c + "criteria.md:19 field-not-parsed «- Verifier: subagent»",
		c + "criteria.md:20 field-not-parsed «- Agent: qa»",
		c + "criteria.md:23 milestone-size «## m2-rollout Rollout»",
		c + "criteria.md:30 val-id-invalid «VAL-roll-002»",
		c + "criteria.md:35 invalid-verifier «commnad»",
		c + "criteria.md:5 stale-evidence «### VAL-SESS-001 — Login returns a signed token that expires after 15 minutes»",
		c + "work/_charter/evidence/2026-11-12T16-30-00-000Z/evidence.json:11 evidence-unknown-val «\"VAL-ROLL-009\"»",
		c + "work/_charter/evidence/2026-11-12T16-30-00-000Z/evidence.json:15 evidence-invalid «\"confidence\"»",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Near-miss: with the source older than the evidence nothing is stale.
	setMtime(t, filepath.Join(project, "src", "auth", "token.go"), time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC))
	for _, g := range found(t, project, Check(context.Background(), viewOf(vfs.OS, LoadDir(vfs.OS, d.Path)), Options{})) {
		if strings.Contains(g, "stale-evidence") {
			t.Errorf("unexpected %s", g)
		}
	}
}
