package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// splitCase splits a test case file into its input and its expectation,
// separated by a line "---- want ----".
func splitCase(t *testing.T, path string) (input []byte, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, w, ok := strings.Cut(string(b), "---- want ----\n")
	if !ok {
		t.Fatalf("%s: no ---- want ---- line", path)
	}
	return []byte(in), strings.TrimSpace(w)
}

// describeCriteria renders the model in the line format of the .txt cases.
func describeCriteria(src []byte, c *Criteria) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mode %s\n", c.Mode)
	for _, m := range c.Milestones {
		fmt.Fprintf(&b, "milestone %s %q %s\n", m.ID, m.Title, strings.Join(m.CriterionIDs(), " "))
	}
	for _, cr := range c.Criteria {
		fmt.Fprintf(&b, "val %s %q", cr.ID, cr.Title)
		if cr.MilestoneID != "" {
			fmt.Fprintf(&b, " in=%s", cr.MilestoneID)
		}
		fmt.Fprintf(&b, " verifier=%s", cr.Verifier.Kind)
		if cr.Verifier.Degraded {
			b.WriteString("(degraded)")
		}
		if cr.Verifier.EvidenceKind != "" {
			fmt.Fprintf(&b, " kind=%s", cr.Verifier.EvidenceKind)
		}
		if cr.Verifier.Agent != "" || cr.Verifier.Task != "" {
			fmt.Fprintf(&b, " agent=%q task=%q", cr.Verifier.Agent, cr.Verifier.Task)
		}
		if cr.Command != "" {
			fmt.Fprintf(&b, " command=%q", cr.Command)
		}
		if cr.RequireFreshEvidence {
			b.WriteString(" fresh")
		}
		if cr.RequireReviewSubagent != nil {
			fmt.Fprintf(&b, " review=%v", *cr.RequireReviewSubagent)
		}
		if cr.Because != "" {
			fmt.Fprintf(&b, " because=%q", cr.Because)
		}
		if cr.Description != "" {
			fmt.Fprintf(&b, " desc=%q", cr.Description)
		}
		if cr.GreedyID {
			fmt.Fprintf(&b, " greedy=%s", cr.IntendedID)
		}
		b.WriteString("\n")
		for _, w := range cr.Warnings() {
			fmt.Fprintf(&b, "  warn %s at %q\n", w.Reason, src[w.Span.Start:w.Span.End])
		}
		for _, f := range cr.NotParsed() {
			fmt.Fprintf(&b, "  not-parsed %s %s=%q\n", f.Form, f.Key, f.Value)
		}
	}
	for _, d := range c.Dropped {
		fmt.Fprintf(&b, "dropped %s %q\n", d.Reason, src[d.IDSpan.Start:d.IDSpan.End])
	}
	if _, ok := CriteriaScaffold(src); ok {
		b.WriteString("scaffold\n")
	}
	return strings.TrimSpace(b.String())
}

// TestParseCriteriaCases runs every testdata/criteria/*.txt case: a
// criteria.md followed by the model it must produce.
func TestParseCriteriaCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/criteria/*.txt")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			in, want := splitCase(t, f)
			got := describeCriteria(in, ParseCriteria(in))
			if got != want {
				t.Errorf("got:\n%s\n\nwant:\n%s", got, want)
			}
		})
	}
}

// Lookup answers what upstream's findCriterion does: the first criterion of
// a repeated id, in the register's order (a flat register and a milestone
// one alike), and Effective tells that block from the later ones.
func TestLookupReadsTheFirstOfARepeatedID(t *testing.T) {
	for _, src := range []string{
		"## m1 One\n\n### VAL-A-001 First\nVerifier: manual\n\n## m2 Two\n\n### VAL-A-001 Second\nVerifier: manual\n\n### VAL-A-002 Other\n",
		"# Criteria\n\n### VAL-A-001 First\n\n### VAL-A-002 Other\n\n### VAL-A-001 Second\n",
	} {
		cr := ParseCriteria([]byte(src))
		var repeated []*Criterion
		for _, c := range cr.Criteria {
			if c.ID == "VAL-A-001" {
				repeated = append(repeated, c)
			}
		}
		if len(repeated) != 2 {
			t.Fatalf("%q: %d VAL-A-001 blocks, want 2", src, len(repeated))
		}
		if got := cr.Lookup("VAL-A-001"); got != repeated[0] || got.Title == "" || !strings.Contains(src[got.HeadingSpan().Start:got.HeadingSpan().End], "First") {
			t.Errorf("%q: Lookup = %+v, want the first block", src, got)
		}
		if !cr.Effective(repeated[0]) || cr.Effective(repeated[1]) || cr.Effective(nil) {
			t.Errorf("%q: Effective = %v, %v, want true, false", src, cr.Effective(repeated[0]), cr.Effective(repeated[1]))
		}
		if cr.Lookup("VAL-A-002") == nil || cr.Lookup("VAL-A-404") != nil {
			t.Errorf("%q: Lookup of VAL-A-002 / VAL-A-404 wrong", src)
		}
	}
}
