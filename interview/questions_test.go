package interview

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// TestQuestionFilling: the value question's [users] and [problem] are short
// noun phrases taken from the answers, never a raw sentence, markdown or
// the same words twice (issue 14, defect 4); otherwise the clause goes.
func TestQuestionFilling(t *testing.T) {
	const rest = ", what unique value does your solution provide? How is it better than alternatives?"
	const plain = "What unique value does your solution provide? How is it better than alternatives?"
	cases := []struct {
		name     string
		material map[rp1.SectionID][]string
		want     string
	}{
		{
			"users open with a noun phrase; the problem is what gets lost",
			map[rp1.SectionID][]string{
				rp1.Users:   {"Product managers and team leads in companies with 10-50 employees."},
				rp1.Problem: {"We build a task app. Right now tasks get lost in chat, so deadlines slip."},
			},
			"For product managers and team leads dealing with lost tasks" + rest,
		},
		{
			"a lead-in is dropped",
			map[rp1.SectionID][]string{rp1.Users: {"A handbook for small teams. The people using it are on-call engineers."}},
			"For on-call engineers" + rest,
		},
		{
			"no problem phrase: the clause is left out",
			map[rp1.SectionID][]string{rp1.Users: {"Renters in cities."}, rp1.Problem: {"A plant app."}},
			"For renters" + rest,
		},
		{"nothing known", nil, plain},
		{
			"names and acronyms keep their case; a long tail is cut at a clause break",
			map[rp1.SectionID][]string{rp1.Users: {"Our users are GitHub maintainers of very large monorepos with many contributors worldwide."}},
			"For GitHub maintainers of very large monorepos" + rest,
		},
		{
			"a first-person sentence is not a noun phrase (was: For I want a tool that …)",
			map[rp1.SectionID][]string{rp1.Users: {"I want a tool that tells me which shifts are open."}},
			plain,
		},
		{
			"a clause about what we do is not the users (was: For we schedule about 300 volunteers …)",
			map[rp1.SectionID][]string{
				rp1.Users:   {"We schedule about 300 volunteers by hand every month."},
				rp1.Problem: {"Volunteer rotas are always out of date."},
			},
			"For people dealing with out-of-date volunteer rotas" + rest,
		},
		{
			"markdown answers: bold segment labels and list items, no ** or ### in the fill",
			map[rp1.SectionID][]string{
				rp1.Users:   {"### Primary User Segments\n\n**Individual Developers**\n- Solo developers working alone\n\n**Development Teams**\n- Teams needing consistency"},
				rp1.Problem: {"AI assistants are powerful, but ad-hoc prompting leads to:\n- Endless refinement loops (\"let me revise that...\")\n- Inconsistent results\n\n**Developer Experience**: context switching hurts."},
			},
			"For individual developers and development teams dealing with endless refinement loops" + rest,
		},
		{
			"a table of segments",
			map[rp1.SectionID][]string{rp1.Users: {"| Segment | Need |\n|---|---|\n| MRM teams | Inventory |\n| ML Engineers | Lineage |"}},
			"For MRM teams and ML Engineers" + rest,
		},
		{
			"the same text as users and as problem is used once",
			map[rp1.SectionID][]string{
				rp1.Users:   {"- Night-shift nurses on busy wards\n- Ward managers"},
				rp1.Problem: {"- Night-shift nurses on busy wards\n- Ward managers"},
			},
			"For night-shift nurses and ward managers" + rest,
		},
		{
			"the users phrase ends before a verb",
			map[rp1.SectionID][]string{rp1.Users: {"Support agents are overloaded during launches."}},
			"For support agents" + rest,
		},
		{
			"an activity takes no adjective in front (was: tedious planning café rotas by hand)",
			map[rp1.SectionID][]string{
				rp1.Users:   {"Café managers who schedule part-time staff."},
				rp1.Problem: {"Planning café rotas by hand is tedious and error prone."},
			},
			"For café managers dealing with planning café rotas by hand" + rest,
		},
		{
			"a reason after because is the problem",
			map[rp1.SectionID][]string{rp1.Problem: {"People kill houseplants because watering schedules are guesswork."}},
			"For people dealing with watering schedules" + rest,
		},
	}
	for _, c := range cases {
		got := Question(rp1.ValueProp, c.material)
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		for _, bad := range []string{"**", "###", "For I ", "For we ", "For We "} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: fill holds %q: %q", c.name, bad, got)
			}
		}
	}
	for _, id := range []rp1.SectionID{rp1.Problem, rp1.Users, rp1.Scope, rp1.Success} {
		if got := Question(id, nil); got != Templates[id] {
			t.Errorf("Question(%s) = %q, want the seed's template", id, got)
		}
	}
}

func TestSentences(t *testing.T) {
	got := Sentences("One line\ncontinues here. Second!\n\n- item a\n- item b. Two.\n1. numbered")
	want := []string{"One line continues here.", "Second!", "item a", "item b.", "Two.", "numbered"}
	if len(got) != len(want) {
		t.Fatalf("Sentences = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d = %q, want %q", i, got[i], want[i])
		}
	}
}
