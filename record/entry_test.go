package record

import (
	"errors"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// A bad entry is an *EntryError naming the field at fault, so the CLI and
// the server can each point at their own flag or parameter; its Error()
// still says which entry.
func TestEntryErrorsNameTheField(t *testing.T) {
	_, dir := fixture(t)
	ok := Entry{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier"}
	for _, tc := range []struct {
		name  string
		edit  func(*Entry)
		field string
		msg   string
	}{
		{"no id", func(e *Entry) { e.CriterionID = " " }, "criterionId", "criterionId is required"},
		{"unknown id", func(e *Entry) { e.CriterionID = "VAL-SESS-02" }, "criterionId", `unknown criterion "VAL-SESS-02"; did you mean VAL-SESS-002`},
		{"outcome", func(e *Entry) { e.Outcome = "ok" }, "outcome", `outcome "ok" must be pass, fail or partial`},
		{"summary", func(e *Entry) { e.Summary = "  " }, "summary", "summary is required"},
		{"summary too long", func(e *Entry) { e.Summary = strings.Repeat("x", MaxText+1) }, "summary", "over the 64 KB limit"},
		{"because too long", func(e *Entry) { e.Source, e.Because = "manual", strings.Repeat("y", MaxText+1) }, "because", "over the 64 KB limit"},
		{"source", func(e *Entry) { e.Source = "robot" }, "source", `source "robot" must be manual, verifier or subagent`},
		{"because", func(e *Entry) { e.Source = "manual" }, "because", "manual evidence needs a non-empty because"},
		{"feature not a milestone", func(e *Entry) { e.FeatureID = "m3-launch" }, "featureId", `feature "m3-launch" is not a milestone of criteria.md; milestones: m1-sessions, m2-rollout`},
		{"feature misspelt", func(e *Entry) { e.FeatureID = "m1-session" }, "featureId", "did you mean m1-sessions?"},
		{"feature unsafe", func(e *Entry) { e.FeatureID = "../x" }, "featureId", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ok
			tc.edit(&e)
			_, err := Plan(vfs.OS, dir, []Entry{e}, Options{Now: t0})
			var ee *EntryError
			if !errors.As(err, &ee) {
				t.Fatalf("err = %v (%T), want an *EntryError", err, err)
			}
			if ee.Field != tc.field || ee.Index != 0 {
				t.Errorf("field %q index %d, want %q 0", ee.Field, ee.Index, tc.field)
			}
			if !contains(ee.Msg, tc.msg) || contains(ee.Msg, "entry 0") {
				t.Errorf("Msg %q, want %q without the entry prefix", ee.Msg, tc.msg)
			}
			if !contains(err.Error(), "entry 0") {
				t.Errorf("Error() %q does not say which entry", err)
			}
		})
	}
	// A milestone's id records under its folder.
	e := ok
	e.FeatureID = "m2-rollout"
	res, err := Plan(vfs.OS, dir, []Entry{e}, Options{Now: t0})
	if err != nil || res.Entries[0].Path != "work/m2-rollout/evidence/2026-11-14T09-30-00-000Z/evidence.json" {
		t.Fatalf("milestone feature: %v %+v", err, res)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
