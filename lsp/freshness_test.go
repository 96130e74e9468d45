package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// The editor gives the verdict CI gives (cmd/charter-lsp's
// TestCheckFreshnessOnClones) on the same clones, made with the real git:
// fresh on a full clone, information that it cannot judge on a shallow
// one, stale after a later source commit.
func TestFreshnessOnClonesAsCheckSays(t *testing.T) {
	for _, c := range []struct {
		name  string
		stale bool
		depth int
		want  []string // the freshness diagnostics of criteria.md: code@line:severity
	}{
		{"full clone", false, 0, nil},
		{"shallow clone", false, 1, []string{fmt.Sprintf("freshness-unknown@4:%d", protocol.DiagnosticSeverityInformation)}},
		{"full clone, a source commit after the evidence", true, 0, []string{fmt.Sprintf("stale-evidence@4:%d", protocol.DiagnosticSeverityWarning)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clone := testfixture.Clone(t, testfixture.FreshEvidenceRepo(t, c.stale), c.depth)
			rel := testfixture.FreshEvidenceDir + "/criteria.md"
			src, err := os.ReadFile(filepath.Join(clone, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			client := lsptest.Start(t, lsptest.Config{Root: clone, InitializationOptions: map[string]any{"debounceMs": 0}})
			u := client.Open(rel, string(src))
			var got []string
			for _, d := range client.WaitDiagnostics(u, 1).Params.Diagnostics {
				code := fmt.Sprint(d.Code)
				if code == "stale-evidence" || code == "freshness-unknown" {
					got = append(got, fmt.Sprintf("%s@%d:%d", code, d.Range.Start.Line, d.Severity))
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("diagnostics %v, want %v", got, c.want)
			}
		})
	}
}
