package interview

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

func TestQuestionFilling(t *testing.T) {
	cases := []struct {
		material map[rp1.SectionID][]string
		want     string
	}{
		{
			map[rp1.SectionID][]string{
				rp1.Users:   {"Product managers and team leads in companies with 10-50 employees."},
				rp1.Problem: {"We build a task app. Right now tasks get lost in chat, so deadlines slip."},
			},
			"For product managers and team leads in companies with 10-50 employees dealing with “tasks get lost in chat”, what unique value does your solution provide? How is it better than alternatives?",
		},
		{
			// The Brain Dump's users sentence: the lead-in is dropped.
			map[rp1.SectionID][]string{rp1.Users: {"A handbook for small teams.", "The people using it are on-call engineers."}},
			"For on-call engineers, what unique value does your solution provide? How is it better than alternatives?",
		},
		{
			// No sentence with a problem cue: the problem clause is left out.
			map[rp1.SectionID][]string{rp1.Users: {"Renters in cities."}, rp1.Problem: {"A plant app."}},
			"For renters in cities, what unique value does your solution provide? How is it better than alternatives?",
		},
		{nil, "What unique value does your solution provide? How is it better than alternatives?"},
		{
			map[rp1.SectionID][]string{rp1.Users: {"Our users are GitHub maintainers of very large monorepos with many many many contributors worldwide today."}},
			"For GitHub maintainers of very large monorepos with many many many contributors worldwide today, what unique value does your solution provide? How is it better than alternatives?",
		},
	}
	for _, c := range cases {
		if got := Question(rp1.ValueProp, c.material); got != c.want {
			t.Errorf("Question(value_prop, %v) =\n%q\nwant\n%q", c.material, got, c.want)
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
