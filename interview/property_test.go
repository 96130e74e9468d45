package interview

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// nastyAnswers are answers of at least two sentences holding what JSON and
// markdown find awkward: quotes, backslashes, several lines, "###" and
// "<!--" inside a line, lists and non-ASCII text.
var nastyAnswers = []string{
	`She said "it's fine" and left. We disagree with "fine".`,
	`Paths like C:\temp\new and \n stay literal. Backslashes \\ too.`,
	"First line of the answer.\nSecond line continues here. Third sentence.",
	"Use ### markers mid-line and <!-- comments --> inline. They must survive.",
	"- item one for the list\n- item two for the list",
	"Unicode ✓ naïve café users. Emoji 🚀 and tabs\tstay too.",
	"Teams will measure success by adoption. It is better than spreadsheets, we won't do billing.",
	"Plain words without any cue at all here. Another plain sentence follows.",
	"Line one is plain. A hash line follows.\n# not a title, just text",
	"It saves an hour a day of copying. It is faster and cheaper than the spreadsheet it replaces.",
	"I don't know yet.",
	"One short sentence with no cue",
}

// TestRandomInterviews drives many interviews with random answers and user
// skips from random starting charters, checking the engine's promises.
func TestRandomInterviews(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2026))
	seen := map[string]int{}
	for iter := 0; iter < 400; iter++ {
		text, exists := randomCharter(rng)
		budget := 1 + rng.IntN(7)
		if err := runRandom(rng, text, exists, budget, seen); err != nil {
			t.Fatalf("iteration %d (budget %d, start %q): %v", iter, budget, text, err)
		}
	}
	// The walk must have exercised every path it claims to check.
	for _, k := range []string{"next_question", "skip", "success", "user-skip", "budget-spent", "brain-dump", "crlf", "project-name"} {
		if seen[k] == 0 {
			t.Errorf("no %s in 400 random interviews: %v", k, seen)
		}
	}
}

// randomCharter is a missing file, an empty one, or an existing charter whose
// five sections are each complete, TBD, one sentence, empty or missing.
func randomCharter(rng *rand.Rand) ([]byte, bool) {
	switch rng.IntN(4) {
	case 0:
		return nil, false
	case 1:
		return nil, true
	}
	var b strings.Builder
	b.WriteString("# Project Charter: Random\n\n**Version**: 1.0.0\n**Status**: Draft\n**Last Updated**: 2026-01-01\n\n")
	for _, id := range rp1.Priority {
		switch rng.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "## %s\n\nThis section is written. It has two sentences.\n\n", rp1.CanonicalHeading[id])
		case 1:
			fmt.Fprintf(&b, "## %s\n\nTBD\n\n", rp1.CanonicalHeading[id])
		case 2:
			fmt.Fprintf(&b, "## %s\n\nOnly one sentence here.\n\n", rp1.CanonicalHeading[id])
		case 3:
			fmt.Fprintf(&b, "## %s\n\n", rp1.CanonicalHeading[id])
		}
	}
	text := b.String()
	if rng.IntN(3) == 0 {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return []byte(text), true
}

func runRandom(rng *rand.Rand, text []byte, exists bool, budget int, seen map[string]int) error {
	if strings.Contains(string(text), "\r\n") {
		seen["crlf"]++
	}
	asked := map[string]bool{} // topics asked so far, via their sections
	answers := map[rp1.SectionID]string{}
	used := map[string]bool{}
	opts := Options{Budget: budget, Now: testNow}
	for step := 0; step < budget+len(rp1.Priority)+2; step++ {
		r := Next(text, exists, opts)
		seen[r.Type]++
		if r.Topic == BrainDumpTopic {
			seen["brain-dump"]++
		}
		if err := checkShape(r); err != nil {
			return fmt.Errorf("step %d: %v", step, err)
		}
		if err := checkAdvice(text, r, budget); err != nil {
			return fmt.Errorf("step %d: %v\n%s", step, err, text)
		}
		switch r.Type {
		case TypeError:
			return fmt.Errorf("step %d: unexpected error %q", step, r.Message)
		case TypeNextQuestion:
			if r.Pending != nil {
				return fmt.Errorf("step %d: a question is pending after the test answered it", step)
			}
			key := string(r.Section)
			switch r.Topic {
			case BrainDumpTopic:
				key = "brain-dump" // an open question, about no section in particular
			case rp1.ProjectNameTopic:
				key = "project-name"
				seen["project-name"]++
			}
			if asked[key] {
				return fmt.Errorf("step %d: %s asked twice", step, key)
			}
			asked[key] = true
			p, err := AskNext(text, r, testNow)
			if err != nil {
				return err
			}
			text, exists = Apply(text, p.Edits), true
			if rng.IntN(4) == 0 {
				seen["user-skip"]++
				text = skipPending(text)
			} else {
				a := nastyAnswers[rng.IntN(len(nastyAnswers))]
				for used[a] { // a user types each answer once: no sentence is said twice
					a = nastyAnswers[rng.IntN(len(nastyAnswers))]
				}
				used[a] = true
				if r.Section != "" && !rp1.Declines(a) {
					answers[r.Section] = a
				}
				text = answerPending(text, a)
			}
		case TypeSkip:
			if asked[string(r.Section)] {
				return fmt.Errorf("step %d: skip of %s, already asked", step, r.Section)
			}
			asked[string(r.Section)] = true
			p, err := RecordSkip(text, r, testNow)
			if err != nil {
				return err
			}
			text = Apply(text, p.Edits)
		case TypeSuccess:
			if n := len(rp1.Parse(text).ScratchPad.Entries); n > budget {
				return fmt.Errorf("%d entries for a budget of %d", n, budget)
			} else if n == budget {
				seen["budget-spent"]++
			}
			return checkFinished(text, r, answers)
		}
	}
	return fmt.Errorf("no success within %d steps:\n%s", budget+len(rp1.Priority)+2, text)
}

// checkAdvice checks that what the diagnostics say the interview will do
// about each gap (rp1.InterviewAdvice) is what the engine does: the
// section it asks about is advised "ask", the one it records as covered
// "covered-by-other", a pending one "pending", and once it finishes no gap
// is still advised "ask".
func checkAdvice(text []byte, r Response, budget int) error {
	qa := rp1.Parse(text).QA()
	advice := map[rp1.SectionID]rp1.AdviceKind{}
	for _, g := range qa.Gaps() {
		if g.Status == rp1.GapOpen {
			advice[g.Section] = qa.InterviewAdvice(g, budget).Kind
		}
	}
	want := rp1.AdviceKind("")
	switch {
	case r.Type == TypeNextQuestion && r.Pending != nil:
		want = rp1.AdvicePending
	case r.Type == TypeNextQuestion && r.Topic != BrainDumpTopic:
		want = rp1.AdviceAsk
	case r.Type == TypeSkip:
		want = rp1.AdviceCoveredByOther
	case r.Type == TypeSuccess:
		for id, k := range advice {
			if k == rp1.AdviceAsk || k == rp1.AdvicePending {
				return fmt.Errorf("the interview finished (%s) but %s is advised %q", r.Message, id, k)
			}
		}
	}
	if got, gap := advice[r.Section]; want != "" && gap && got != want {
		return fmt.Errorf("the interview's %s about %s, advised %q", r.Type, r.Section, got)
	}
	return nil
}

// checkShape marshals r and checks the JSON against upstream's declared
// shape: known keys only, a known type, metadata with all three fields and
// gaps from the five ids, unique and in priority order.
func checkShape(r Response) error {
	b, err := json.Marshal(r)
	if err != nil || !json.Valid(b) {
		return fmt.Errorf("marshal: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for k := range m {
		switch k {
		case "type", "next_question", "message", "charter_complete", "charter_content", "metadata":
		default:
			return fmt.Errorf("unexpected key %q in %s", k, b)
		}
	}
	var back struct {
		Type         string  `json:"type"`
		NextQuestion *string `json:"next_question"`
		Content      map[string]string
		Metadata     struct {
			QuestionNumber *int      `json:"question_number"`
			TotalQuestions *int      `json:"total_questions"`
			Gaps           *[]string `json:"gaps_remaining"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		return err
	}
	if !slices.Contains([]string{TypeNextQuestion, TypeSuccess, TypeSkip, TypeError}, back.Type) {
		return fmt.Errorf("type %q", back.Type)
	}
	md := back.Metadata
	if md.QuestionNumber == nil || md.TotalQuestions == nil || md.Gaps == nil {
		return fmt.Errorf("metadata incomplete: %s", b)
	}
	last := -1
	for _, g := range *md.Gaps {
		i := slices.Index(rp1.Priority, rp1.SectionID(g))
		if i <= last {
			return fmt.Errorf("gaps_remaining %v not unique, known and in priority order", *md.Gaps)
		}
		last = i
	}
	if (back.Type == TypeNextQuestion) != (back.NextQuestion != nil) {
		return fmt.Errorf("next_question present iff type next_question: %s", b)
	}
	if back.Type == TypeSuccess {
		var c struct {
			Content map[string]string `json:"charter_content"`
		}
		json.Unmarshal(b, &c)
		for _, id := range rp1.Priority {
			if strings.TrimSpace(c.Content[string(id)]) == "" {
				return fmt.Errorf("success without content for %s: %s", id, b)
			}
		}
	}
	return nil
}

// checkFinished applies Finish and checks the charter: no scratch pad,
// Status Complete exactly when every section is written (none left _TBD_,
// rp1's derivation), each section's body re-parses to exactly its
// charter_content (round trip), every sentence of every answer survives in
// exactly one section (an answer kept whole survives verbatim in its own),
// every answered section is written, and check reports no gap on an
// answered section and no status contradiction.
func checkFinished(text []byte, r Response, answers map[rp1.SectionID]string) error {
	p, err := Finish(text, r, testNow)
	if err != nil {
		return err
	}
	done := Apply(text, p.Edits)
	ch := rp1.Parse(done)
	if ch.ScratchPad != nil {
		return fmt.Errorf("scratch pad left:\n%s", done)
	}
	want := "Complete"
	bodies := map[rp1.SectionID]string{}
	for _, id := range rp1.Priority {
		sec := ch.Section(id)
		if sec == nil {
			return fmt.Errorf("%s missing:\n%s", id, done)
		}
		if sec.Status == rp1.StatusEmpty {
			want = "Draft"
		}
		body := strings.TrimSpace(strings.ReplaceAll(string(done[sec.BodySpan.Start:sec.BodySpan.End]), "\r\n", "\n"))
		if body != r.CharterContent.Get(id) {
			return fmt.Errorf("%s round trip: body %q, content %q", id, body, r.CharterContent.Get(id))
		}
		bodies[id] = body
	}
	if f := ch.Header("Status"); f == nil || f.Value != want {
		return fmt.Errorf("status not %s:\n%s", want, done)
	}
	all := strings.Join(slices.Collect(maps.Values(bodies)), "\n")
	for id, a := range answers {
		if slices.Contains(r.Keep, id) {
			continue
		}
		if ch.Section(id).Status == rp1.StatusEmpty {
			return fmt.Errorf("%s answered but left unwritten: %q", id, bodies[id])
		}
		if strings.Contains(bodies[id], rp1.AnswerMarkdown(a)) {
			continue // kept whole
		}
		for _, s := range rp1.SplitSentences(a) {
			if n := strings.Count(all, s.Text); n != 1 {
				return fmt.Errorf("sentence %q of the %s answer is written %d times:\n%s", s.Text, id, n, done)
			}
		}
	}
	for _, d := range rp1.Check(ch, rp1.Options{RP1Style: true}) {
		switch d.Code.String() {
		case "status-complete-with-gaps":
			return fmt.Errorf("the finished charter contradicts check: %s\n%s", d.Message, done)
		case "section-missing", "section-empty", "section-covered-by-qa":
			for id := range answers {
				if sec := ch.Section(id); sec != nil && within(d.Span, sec) {
					return fmt.Errorf("%s diagnostic on answered section %s: %s", d.Code, id, d.Message)
				}
			}
		}
	}
	return nil
}

func within(s source.Span, sec *rp1.Section) bool {
	return s.Start >= sec.HeadingSpan.Start && s.Start < sec.BodySpan.End
}

// skipPending turns the pending entry's "**Answer**:" into a user skip.
func skipPending(text []byte) []byte {
	e := rp1.Parse(text).ScratchPad.PendingEntry()
	if e == nil || !e.HasAnswer {
		return text
	}
	line := rp1.Parse(text).Index.Line(e.AnswerSpan.Start)
	ls := rp1.Parse(text).Index.LineSpan(line)
	return Apply(text, []Edit{{Span: ls, NewText: "**Skipped**: The user skipped this question."}})
}
