package interviewtest

import (
	"strings"
	"testing"
)

const createFlow = `Q1: Brain dump -> User mentions problem and users -> gaps_remaining = [value_prop, scope, success]
Q2: Value prop question -> User answers -> gaps_remaining = []
Return: success (all gaps filled after 2 questions)`

func obs(typ string, n int, topic string, after int, gaps ...string) Observed {
	if gaps == nil {
		gaps = []string{}
	}
	return Observed{Response: Response{Type: typ, Number: n, Topic: topic, Gaps: gaps}, After: after}
}

// TestCheckSeed: the checker reads the seed's promises from its words and
// catches a run that breaks one.
func TestCheckSeed(t *testing.T) {
	good := []Observed{
		obs("next_question", 1, "Brain Dump", 0, "problem", "users", "value_prop", "scope", "success"),
		obs("next_question", 2, "Value Proposition", 1, "value_prop", "scope", "success"),
		obs("success", 3, "", 2),
	}
	if problems, n := CheckSeed(createFlow, good); len(problems) != 0 || n != 3 {
		t.Errorf("a faithful run: %d checked, problems %v", n, problems)
	}
	reasked := []Observed{good[0], obs("next_question", 2, "Problem & Context", 1, "problem", "value_prop", "scope", "success"), good[2]}
	if problems, _ := CheckSeed(createFlow, reasked); len(problems) != 2 || !strings.Contains(strings.Join(problems, "\n"), "Q2 does not ask about Value prop") {
		t.Errorf("re-asking the problem went unnoticed: %v", problems)
	}
	late := append(append([]Observed{}, good[:2]...), obs("next_question", 3, "Scope", 2, "scope", "success"), obs("success", 4, "", 3))
	if problems, _ := CheckSeed(createFlow, late); len(problems) != 2 {
		t.Errorf("a third question and a wrong gaps_remaining after Q2: %v", problems)
	}
	skip := `{"type": "skip", "message": "Value proposition already covered in brain dump response.", "metadata": {"question_number": 2, "total_questions": 5, "gaps_remaining": ["scope", "success"]}}`
	withSkip := []Observed{{Response: Response{Type: "skip", JSON: []byte(`{"type":"skip","message":"Value proposition already covered in brain dump response.","metadata":{"question_number":2,"total_questions":5,"gaps_remaining":["scope","success"]}}`)}}}
	if problems, n := CheckSeed(skip, withSkip); len(problems) != 0 || n != 1 {
		t.Errorf("the seed's skip: %d checked, %v", n, problems)
	}
	withSkip[0].JSON = []byte(`{"type":"skip","message":"Value proposition already covered in Q1 (Brain Dump).","metadata":{"question_number":2,"total_questions":5,"gaps_remaining":["scope","success"]}}`)
	if problems, _ := CheckSeed(skip, withSkip); len(problems) != 1 {
		t.Errorf("another message went unnoticed")
	}
	if _, n := CheckSeed("Nothing the checker can read.", good); n != 0 {
		t.Errorf("read %d promises from nothing", n)
	}
}

// TestParseSteps: the steps section's grammar.
func TestParseSteps(t *testing.T) {
	steps, err := parseSteps("> next_question Q1 Brain Dump [problem users]\nline one\n\nline two\n> next_question Q2 Target Users [users]\n(skip)\n> success Q3 []\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[0].Topic != "Brain Dump" || steps[0].Answer != "line one\n\nline two" || !steps[1].Skip || steps[2].Type != "success" || len(steps[2].Gaps) != 0 {
		t.Errorf("%+v", steps)
	}
	if _, err := parseSteps("an answer before any step\n> success Q1 []\n"); err == nil {
		t.Error("text before the first step accepted")
	}
	if _, err := parseSteps("> success 1 []\n"); err == nil {
		t.Error("a malformed step line accepted")
	}
}
