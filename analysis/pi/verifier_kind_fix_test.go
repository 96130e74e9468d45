package pi

import "testing"

// The invalid-verifier quick fix needs the kind a misspelt value meant; an
// unrelated word or a bad shape (subagent without Agent:) suggests nothing.
func TestClosestVerifierKind(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"Verifier: commnad\n", "command"},
		{"Verifier: Manaul\n", "manual"},
		{"Verifier: evidence-exist\nKind: qa\n", "evidence-exists"},
		{"Verifier: hok\n", "hook"},
		{"Verifier: banana\n", ""},
		{"Verifier: subagent\n", ""},
		{"Verifier: command\n", ""},
	} {
		cr := ParseCriteria([]byte("## m1 M\n\n### VAL-A-001 — Something holds\n" + tc.body))
		if len(cr.Criteria) != 1 {
			t.Fatalf("%q: %d criteria", tc.body, len(cr.Criteria))
		}
		if got := closestVerifierKind(cr.Criteria[0].Verifier); got != tc.want {
			t.Errorf("%q: closestVerifierKind = %q, want %q", tc.body, got, tc.want)
		}
	}
}
