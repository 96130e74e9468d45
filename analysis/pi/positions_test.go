package pi

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// CRLF endings and non-ASCII text must give the same model as LF, with
// spans that map to the right UTF-16 columns.
func TestCriteriaCRLFAndNonASCII(t *testing.T) {
	src := []byte("# Критерии\r\n\r\n## m1 Émojis 🚀\r\n\r\n### VAL-É-001 bad id\r\n### VAL-UTF-001 — Grüße 🚀 arrive\r\nVerifier: commnad\r\nBecause: ✓\r\n")
	c := ParseCriteria(src)
	if len(c.Criteria) != 1 || c.Criteria[0].Title != "Grüße 🚀 arrive" || c.Criteria[0].Because != "✓" {
		t.Fatalf("model: %+v", c.Criteria)
	}
	ix := source.NewIndex(src)
	v := c.Criteria[0]
	w := v.Warnings()[0]
	if w.Reason != "invalid-verifier" {
		t.Fatalf("warnings %+v", v.Warnings())
	}
	cases := []struct {
		name string
		span source.Span
		want source.Range
	}{
		{"title", v.TitleSpan(), source.Range{Start: source.Position{Line: 5, Character: 18}, End: source.Position{Line: 5, Character: 33}}},
		{"verifier value", w.Span, source.Range{Start: source.Position{Line: 6, Character: 10}, End: source.Position{Line: 6, Character: 17}}},
		{"heading ends before CR", v.HeadingSpan(), source.Range{Start: source.Position{Line: 5}, End: source.Position{Line: 5, Character: 33}}}, // "—" is one UTF-16 unit, "🚀" two
	}
	for _, c := range cases {
		if got := ix.Range(c.span); got != c.want {
			t.Errorf("%s: got %+v want %+v", c.name, got, c.want)
		}
	}
	if len(c.Dropped) != 1 || string(src[c.Dropped[0].IDSpan.Start:c.Dropped[0].IDSpan.End]) != "VAL-É-001" {
		t.Errorf("dropped %+v", c.Dropped)
	}
	if m := c.Milestones[0]; m.Title != "m1 Émojis 🚀" {
		t.Errorf("milestone %q", m.Title)
	}
}

func TestLatestOutcomesFixture(t *testing.T) {
	d := LoadDirFixture(t)
	got := LatestResults(d)
	if o := got["VAL-ROLL-001"]; o.Origin != FromCriterionState || o.Outcome != "pass" {
		t.Errorf("tie between state and row should keep criterion-state: %+v", o)
	}
	// The VAL-ROLL-009 row carries "confidence", which the schema forbids:
	// a row that breaks the schema is reported, not counted as an outcome.
	if o, ok := got["VAL-ROLL-009"]; ok {
		t.Errorf("schema-breaking row counted as an outcome: %+v", o)
	}
	if o := got["VAL-SESS-001"]; o.Outcome != "pass" || o.TS != "2026-11-11T10:15:00.000Z" {
		t.Errorf("VAL-SESS-001: %+v", o)
	}
	if _, ok := got["VAL-SESS-003"]; ok {
		t.Error("VAL-SESS-003 has no record")
	}
}
