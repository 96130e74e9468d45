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

// An empty Verifier: value is said to be empty, not an unknown kind "".
func TestEmptyVerifierMessage(t *testing.T) {
	for _, body := range []string{"Verifier: \n", "Verifier:\n", "Verifier:   \t\n"} {
		cr := ParseCriteria([]byte("## m1 M\n\n### VAL-A-001 — Something holds\n" + body))
		v := cr.Criteria[0].Verifier
		if !v.Declared || !v.Degraded || v.DegradeReason != "the Verifier: line names no kind" {
			t.Errorf("%q: declared %v degraded %v reason %q", body, v.Declared, v.Degraded, v.DegradeReason)
		}
	}
	cr := ParseCriteria([]byte("## m1 M\n\n### VAL-A-001 — Something holds\nVerifier: bogus\n"))
	if v := cr.Criteria[0].Verifier; v.DegradeReason != `unknown verifier kind "bogus"` {
		t.Errorf("an unknown kind: reason %q", v.DegradeReason)
	}
}
