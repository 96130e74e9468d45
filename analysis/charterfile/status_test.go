package charterfile

import (
	"slices"
	"testing"
)

// ADR-0015 reads an Evidence line's none as pending. Every reading of a
// legacy status says so through Status.Current: the legacy line itself,
// the rewrite to a Status line, an ADR-0014 criteria snapshot in
// state.json, and the nearest token offered for a Status line's "none".
func TestLegacyNoneReadsAsPending(t *testing.T) {
	c := ParseFI15([]byte("## Objective\nShip.\n## Criteria\n### C1. Parses\nEvidence: none — not run\n"))
	if cr := c.Criterion("C1"); cr == nil || cr.Status != StatusPending || !cr.Legacy || cr.Note != "not run" {
		t.Fatalf("legacy Evidence line: %+v", cr)
	}
	fix, err := c.EvidenceToStatus("C1")
	if err != nil || fix == nil || len(fix.Edits) != 1 || fix.Edits[0].NewText != "Status: pending — not run" {
		t.Errorf("rewrite: %+v, %v", fix, err)
	}
	st := ParseState([]byte(`{"charterId":"x","objective":"o","status":"active","schemaVersion":"file-interface","criteriaSnapshot":[{"id":"C1","title":"Parses","depends":[],"evidence":{"status":"none","note":""},"evidenceSeq":1}]}`))
	if len(st.CriteriaSnapshot) != 1 || st.CriteriaSnapshot[0].Status != StatusPending {
		t.Errorf("ADR-0014 snapshot: %+v", st.CriteriaSnapshot)
	}
	if repl, _, guessed, ok := nearestStatus("none", StatusLineTokens); !ok || guessed || repl != string(StatusPending) {
		t.Errorf("nearest Status token for none: %q, %v", repl, ok)
	}
	for _, s := range append(slices.Clone(StatusLineTokens), StatusNone) {
		if want := map[bool]Status{true: StatusPending, false: s}[s == StatusNone]; s.Current() != want {
			t.Errorf("%s.Current() = %s", s, s.Current())
		}
		if s.Meaning() == "" {
			t.Errorf("%s has no meaning", s)
		}
	}
}

// A generation's tokens: an Evidence line's in ADR-0014 and for a legacy
// line, a Status line's otherwise; the label is matched as upstream does.
func TestStatusTokens(t *testing.T) {
	for _, c := range []struct {
		g     Generation
		label string
		want  []Status
	}{
		{FI14, "Status", EvidenceLineTokens},
		{FI15, "Evidence", EvidenceLineTokens},
		{FI15, "evidence", EvidenceLineTokens},
		{FI15, "Status", StatusLineTokens},
	} {
		if got := StatusTokens(c.g, c.label); !slices.Equal(got, c.want) {
			t.Errorf("StatusTokens(%s, %s) = %v", c.g, c.label, got)
		}
	}
	if got := tokenList(StatusLineTokens); got != "pending, in-progress, blocked, pass, fail" {
		t.Errorf("upstream's order: %s", got)
	}
}
