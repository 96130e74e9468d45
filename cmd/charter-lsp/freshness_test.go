package main

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// The README's CI recipe on a repository whose criteria require fresh
// evidence, cloned with the real git as actions/checkout does: a full
// clone passes `check --max-warnings 0` (its file times are the clone's,
// but the evidence was recorded after the last source commit); a depth-1
// clone says once, as information, why it cannot judge and does not fail;
// a source commit after the evidence fails the check. File times alone
// (--freshness mtime) call every fresh clone stale.
func TestCheckFreshnessOnClones(t *testing.T) {
	for _, c := range []struct {
		name   string
		stale  bool
		depth  int
		args   []string
		code   int
		has    []string
		hasNot []string
	}{
		{"full clone", false, 0, nil, 0, nil, []string{"stale-evidence", "freshness-unknown"}},
		{"shallow clone", false, 1, nil, 0, []string{"information freshness-unknown", "VAL-API-001", "fetch-depth: 0"}, []string{"stale-evidence"}},
		{"full clone, a source commit after the evidence", true, 0, nil, 1, []string{"warning stale-evidence", "VAL-API-001", "2026-11-12T09:00:00Z"}, []string{"freshness-unknown"}},
		{"shallow clone, a source commit after the evidence", true, 1, nil, 0, []string{"freshness-unknown"}, []string{"stale-evidence"}},
		{"full clone by file times", false, 0, []string{"--freshness", "mtime"}, 1, []string{"stale-evidence"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			clone := testfixture.Clone(t, testfixture.FreshEvidenceRepo(t, c.stale), c.depth)
			out, errOut, code := cli(t, clone, "", append([]string{"check", "--max-warnings", "0"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			for _, s := range c.has {
				if !strings.Contains(out, s) {
					t.Errorf("no %q in\n%s", s, out)
				}
			}
			for _, s := range c.hasNot {
				if strings.Contains(out, s) {
					t.Errorf("%q in\n%s", s, out)
				}
			}
			if n := strings.Count(out, "freshness-unknown"); n > 1 {
				t.Errorf("freshness-unknown said %d times:\n%s", n, out)
			}
		})
	}
}
