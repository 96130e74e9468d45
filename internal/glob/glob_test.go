package glob

import "testing"

func TestCompileMatchesLikeVSCode(t *testing.T) {
	cases := []struct {
		glob string
		yes  []string
		no   []string
	}{
		{"**/.pi/charters/*/criteria.md",
			[]string{"/p/.pi/charters/auth/criteria.md", ".pi/charters/a/criteria.md", "/a/b/c/.pi/charters/x-1/criteria.md"},
			[]string{"/p/.pi/charters/criteria.md", "/p/.pi/charters/a/b/criteria.md", "/p/api/charters/a/criteria.md", "/p/.pi/charters/a/criteria.mdx"}},
		{"**/{charter,Charter,CHARTER}.md",
			[]string{"/charter.md", "charter.md", "/p/x/CHARTER.md", "/p/Charter.md"},
			[]string{"/p/cHarter.md", "/p/my-charter.md", "/p/charter.md/x"}},
		{"**/.pi/charters/*/work/**/evidence/**/evidence.json",
			[]string{"/p/.pi/charters/a/work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json", "/p/.pi/charters/a/work/evidence/evidence.json"},
			[]string{"/p/.pi/charters/a/work/_charter/evidence.json", "/p/.pi/charters/a/work/_charter/evidence/s/other.json"}},
		{"src/**", []string{"src/a", "src/a/b", "src/"}, []string{"srcx/a", "a/src/b"}},
		{"a?c", []string{"abc"}, []string{"a/c", "ac"}},
	}
	for _, c := range cases {
		re, err := Compile(c.glob)
		if err != nil {
			t.Fatalf("%s: %v", c.glob, err)
		}
		for _, p := range c.yes {
			if !re.MatchString(p) {
				t.Errorf("%s (%s) does not match %s", c.glob, re, p)
			}
		}
		for _, p := range c.no {
			if re.MatchString(p) {
				t.Errorf("%s (%s) matches %s", c.glob, re, p)
			}
		}
	}
}

func TestVimDialect(t *testing.T) {
	got, err := Regexp("**/.pi/charters/*/{criteria,REPORT}.md", Vim)
	if err != nil {
		t.Fatal(err)
	}
	// Checked by hand with vim.regex in Neovim 0.7.2; the e2e test runs the
	// plugin's generated patterns for real.
	if want := `\v^%(.*/)?\.pi/charters/[^/]*/%(criteria|REPORT)\.md$`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRejectsWhatItCannotTranslate(t *testing.T) {
	for _, g := range []string{"a**b", "[ab].md", "{a,b", "a b", `a\b`, "a(b"} {
		if re, err := Regexp(g, RE2); err == nil {
			t.Errorf("%q: accepted as %s", g, re)
		}
	}
}
