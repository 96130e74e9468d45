package analysis

import (
	"regexp"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/glob"
)

// The editors select documents with FileGlobs; the server decides with
// Classify. Every file the server checks must reach it, and the editors
// should not send it files it ignores.
func TestFileGlobsSelectWhatClassifyRecognises(t *testing.T) {
	var res []*regexp.Regexp
	for _, g := range FileGlobs {
		re, err := glob.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, re)
	}
	selected := func(p string) bool {
		for _, re := range res {
			if re.MatchString(p) {
				return true
			}
		}
		return false
	}
	charter := "# Project Charter: X\n\n## Target Users\n"
	recognised := []struct{ path, content string }{
		{"/p/.rp1/context/charter.md", charter},
		{"/p/docs/Charter.md", ""},
		{"/p/CHARTER.md", charter},
		{"/p/teams/charter.md", "# Team rules\n"}, // not rp1-style: still offered the interview
		{"/p/.pi/charters/auth/charter.md", "## Objective\n"},
		{"/p/.pi/charters/auth/criteria.md", ""},
		{"/p/.pi/charters/auth/REPORT.md", ""},
		{"/p/.pi/charters/auth/state.json", ""},
		{"/p/.pi/charters/auth/criterion-state.json", ""},
		{"/p/.pi/charters/auth/work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json", ""},
		{"/p/.pi/charters/auth/work/m1-sessions/evidence/2026-11-10T08-00-00-000Z-1/evidence.json", ""},
		{"/p/.charter-lsp.jsonc", "{}"},
		{"/p/sub/.charter-lsp.json", "{}"},
	}
	for _, s := range recognised {
		if k := Classify(s.path, []byte(s.content)); k == KindNone {
			t.Errorf("sample %s: Classify says it is no charter file; fix the sample", s.path)
		}
		if !selected(s.path) {
			t.Errorf("%s (%s) is selected by no FileGlobs pattern: editors would never send it", s.path, Classify(s.path, []byte(s.content)))
		}
	}

	// Files of the current pi-charter layout (FORMATS.md §2.0): the editors
	// send them whether or not this build of the server reads them yet.
	for _, p := range []string{
		"/p/.charters/20260701-120000-streaming-parser/charter.md",
		"/p/.charters/20260701-120000-streaming-parser/state.json",
		"/p/.charters/20260701-120000-streaming-parser/events.jsonl",
	} {
		if !selected(p) {
			t.Errorf("%s is selected by no FileGlobs pattern", p)
		}
	}

	ignored := []string{
		"/p/README.md",
		"/p/criteria.md",
		"/p/REPORT.md",
		"/p/state.json",
		"/p/package.json",
		"/p/events.jsonl",
		"/p/.pi/state.json",
		"/p/.pi/charters/auth/notes.md",
		"/p/.pi/charters/auth/Criteria.md",
		"/p/.pi/charters/auth/work/_charter/notes.json",
		"/p/.pi/charters/auth/work/_charter/evidence.json",
		"/p/.charters/.mutation.lock",
		"/p/.charters/20260701-120000-x/events.jsonl.lock",
		"/p/my-charter.md",
	}
	for _, p := range ignored {
		if k := Classify(p, nil); k != KindNone {
			t.Errorf("sample %s: Classify says %s; fix the sample", p, k)
		}
		if selected(p) {
			t.Errorf("%s is selected, but the server ignores it", p)
		}
	}

	// What the globs cannot say: a markdown file of another name that is a
	// charter by its content. Editors attach to it only under a charter's name.
	if p := "/p/notes/kickoff.md"; Classify(p, []byte(charter)) != KindRP1Charter || selected(p) {
		t.Errorf("%s: expected a content-only rp1 charter that no glob selects", p)
	}
}
