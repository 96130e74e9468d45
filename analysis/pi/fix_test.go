package pi

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// checkCriteriaText checks a charter holding criteria.md = text and returns
// the diagnostics of criteria.md.
func checkCriteriaText(t *testing.T, text string) []diag.Diagnostic {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".pi", "charters", "c")
	mustWrite(t, filepath.Join(dir, "criteria.md"), text)
	return Check(context.Background(), viewOf(vfs.OS, LoadDir(vfs.OS, dir)), Options{})[filepath.Join(dir, "criteria.md")]
}

// Each check that knows the one edit resolving its finding attaches it as a
// Fix; applying it makes the finding go away, and in a CRLF file the lines
// it adds end in CRLF too.
func TestFixesResolveTheirFindings(t *testing.T) {
	for _, tc := range []struct {
		code, body, title, want string
		needsInput              bool
	}{
		{"val-id-invalid", "### VAL-a_002 Two holds\nVerifier: hook\n", "Change the id to VAL-A-002", "### VAL-A-002 Two holds\n", false},
		{"val-id-greedy", "### VAL-A-002-Second holds\nVerifier: hook\n", "Write the id as VAL-A-002 and the title after it", "### VAL-A-002 — Second holds\n", false},
		{"invalid-verifier", "### VAL-A-002 Two holds\nVerifier: commnad\nCommand: go test ./...\n", "Change the verifier to command", "Verifier: command\n", false},
		{"field-not-parsed", "### VAL-A-002 Two holds\nVerifier: hook\n  - Because: bullet\n", "Rewrite as `Because: bullet`", "Verifier: hook\nBecause: bullet\n", false},
		{"field-key-typo", "### VAL-A-002 Two holds\nVerifer: hook\n", "Change the key to Verifier", "Verifier: hook\n", false},
		{"missing-because", "### VAL-A-002 Two holds\nVerifier: manual\n\n", "Add a `Because:` line", "Verifier: manual\nBecause: \n", true},
		{"missing-verifier", "### VAL-A-002 Two holds\nThe second thing holds.\n\n", "Add `Verifier: manual` and `Because:` lines", "The second thing holds.\nVerifier: manual\nBecause: \n", true},
	} {
		for _, nl := range []string{"\n", "\r\n"} {
			name := tc.code
			if nl == "\r\n" {
				name += "/crlf"
			}
			t.Run(name, func(t *testing.T) {
				text := strings.ReplaceAll("## m1 One\n### VAL-A-001 One holds\nVerifier: hook\n"+tc.body+"### VAL-A-003 Three holds\nVerifier: hook\n", "\n", nl)
				var fix *diag.Fix
				for _, d := range checkCriteriaText(t, text) {
					if d.Code.String() == tc.code {
						fix = d.Fix
					}
				}
				if fix == nil {
					t.Fatalf("%s has no fix", tc.code)
				}
				if fix.Title != tc.title || fix.NeedsInput != tc.needsInput {
					t.Errorf("fix %q (needs input %v), want %q (%v)", fix.Title, fix.NeedsInput, tc.title, tc.needsInput)
				}
				for _, e := range fix.Edits {
					if e.Range.End.Line < e.Range.Start.Line || e.Range.Start.Line < 3 {
						t.Errorf("edit not located on the VAL: %+v", e.Range)
					}
				}
				fix.NeedsInput = false // apply it as the editor would
				fixed, applied := diag.ApplyFixes([]byte(text), []*diag.Fix{fix})
				if len(applied) != 1 {
					t.Fatal("the fix did not apply")
				}
				if want := strings.ReplaceAll(tc.want, "\n", nl); !strings.Contains(string(fixed), want) {
					t.Fatalf("fixed text lacks %q:\n%s", want, fixed)
				}
				if tc.needsInput {
					fixed = []byte(strings.Replace(string(fixed), "Because: "+nl, "Because: a person checks it"+nl, 1))
				}
				for _, d := range checkCriteriaText(t, string(fixed)) {
					if d.Code.String() == tc.code {
						t.Errorf("%s still reported after the fix: %s", tc.code, d.Message)
					}
				}
			})
		}
	}
}

// A bullet `- Verifier:` line is fixed by rewriting it (field-not-parsed);
// missing-verifier then offers no second, conflicting fix.
func TestMissingVerifierDefersToTheBulletFix(t *testing.T) {
	ds := checkCriteriaText(t, "## m1 One\n### VAL-A-001 One holds\n- Verifier: hook\n### VAL-A-002 Two\nVerifier: hook\n### VAL-A-003 Three\nVerifier: hook\n")
	var seen int
	for _, d := range ds {
		switch d.Code.String() {
		case "missing-verifier":
			seen++
			if d.Fix != nil {
				t.Errorf("missing-verifier offers %q beside the bullet rewrite", d.Fix.Title)
			}
		case "field-not-parsed":
			seen++
			if d.Fix == nil {
				t.Error("field-not-parsed has no fix")
			}
		}
	}
	if seen != 2 {
		t.Fatalf("want missing-verifier and field-not-parsed, got %d of them", seen)
	}
}
