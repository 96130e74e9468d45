package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
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

// A reading of the history that gives up on its deadline or its budget
// (gitlog.Limits, shrunk here) never passes for fresh: on the same full
// clones, fresh or stale, check says once, as information, that it could
// not judge and why, reports nothing stale, and does not fail; a later
// run with the usual limits gives the verdict.
func TestCheckFreshnessWhenTheHistoryIsNotRead(t *testing.T) {
	for _, c := range []struct {
		name string
		lim  gitlog.Limits
		want string
	}{
		{"deadline", gitlog.Limits{Timeout: time.Nanosecond}, "took longer than 1ns"},
		{"budget", gitlog.Limits{Bytes: 1}, "larger than charter-lsp reads"},
	} {
		for _, stale := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, stale %v", c.name, stale), func(t *testing.T) {
				clone := testfixture.Clone(t, testfixture.FreshEvidenceRepo(t, stale), 0)
				gitLimits = func() gitlog.Limits { return c.lim }
				t.Cleanup(func() { gitLimits = nil })
				out, errOut, code := cli(t, clone, "", "check", "--max-warnings", "0")
				if code != 0 {
					t.Errorf("exit %d, want 0\n%s%s", code, out, errOut)
				}
				for _, s := range []string{"information freshness-unknown", "VAL-API-001", c.want, `"freshness": "mtime"`} {
					if !strings.Contains(out, s) {
						t.Errorf("no %q in\n%s", s, out)
					}
				}
				if strings.Contains(out, "stale-evidence") || strings.Count(out, "freshness-unknown") != 1 {
					t.Errorf("want freshness-unknown once and nothing stale:\n%s", out)
				}
				gitLimits = nil
				out, _, code = cli(t, clone, "", "check", "--max-warnings", "0")
				if want := map[bool]int{false: 0, true: 1}[stale]; code != want || strings.Contains(out, "freshness-unknown") {
					t.Errorf("with the usual limits: exit %d, want %d\n%s", code, want, out)
				}
			})
		}
	}
}
