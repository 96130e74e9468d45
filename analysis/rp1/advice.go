package rp1

import (
	"context"
	"fmt"
	"strings"
)

// The scratch-pad interview (package interview) asks about each gap once, in
// priority order, until its budget is spent; a gap another answer already
// says enough about is recorded as covered instead of asked. A diagnostic on
// a gap should say what that interview will do about it, not offer a
// question it will never ask.

// Advice is what the scratch-pad interview will do about one gap section.
type Advice struct {
	Kind AdviceKind
	// Entry is the entry concerned: the pending or skipped question, the
	// earlier answer that covers the section, or the entry that asked.
	Entry *Entry
	// Budget is the question budget, for AdviceBudgetSpent.
	Budget int
}

// AdviceKind names what the interview will do.
type AdviceKind string

const (
	// AdviceAsk: the next interview questions include this section.
	AdviceAsk AdviceKind = "ask"
	// AdvicePending: a question about it awaits its answer.
	AdvicePending AdviceKind = "pending"
	// AdviceCoveredByOther: an answer about other sections says enough
	// about it; the interview records that rather than asking, and
	// finishing writes the section from that answer.
	AdviceCoveredByOther AdviceKind = "covered-by-other"
	// AdviceSkipped: its question was skipped; it is never asked again.
	AdviceSkipped AdviceKind = "skipped"
	// AdviceAsked: an entry already asked about it (one the interview reads
	// but that answers nothing, such as an unnumbered heading); it is never
	// asked again.
	AdviceAsked AdviceKind = "asked"
	// AdviceBudgetSpent: the scratch pad holds as many questions as the
	// budget allows; the interview finishes instead of asking.
	AdviceBudgetSpent AdviceKind = "budget-spent"
)

// InterviewAdvice says what the scratch-pad interview will do about
// section id while it is a gap, deciding as the interview's engine does:
// an entry that asked about the section (answered, skipped or pending) is
// never asked again; a gap another answer covers is skipped; past the
// budget nothing is asked.
func (ch *Charter) InterviewAdvice(id SectionID, budget int) Advice {
	a, _ := ch.interviewAdvice(context.Background(), id, budget)
	return a
}

// interviewAdvice is InterviewAdvice that stops, returning ctx's error,
// when ctx is done while it weighs the other answers.
func (ch *Charter) interviewAdvice(ctx context.Context, id SectionID, budget int) (Advice, error) {
	if budget <= 0 {
		budget = DefaultQuestionBudget
	}
	var asked *Entry
	entries := 0
	if pad := ch.ScratchPad; pad != nil {
		for _, e := range pad.Entries {
			if e.Malformed() {
				continue
			}
			entries++
			if asked == nil && e.About(id) {
				asked = e
			}
		}
	}
	switch {
	case asked != nil && asked.Pending():
		return Advice{Kind: AdvicePending, Entry: asked}, nil
	case asked != nil && asked.HasSkipped && !asked.Answered():
		return Advice{Kind: AdviceSkipped, Entry: asked}, nil
	case asked != nil:
		return Advice{Kind: AdviceAsked, Entry: asked}, nil
	}
	e, _, err := ch.otherAnswerCovering(ctx, id)
	if err != nil {
		return Advice{}, err
	}
	if e != nil {
		return Advice{Kind: AdviceCoveredByOther, Entry: e}, nil
	}
	if entries >= budget {
		return Advice{Kind: AdviceBudgetSpent, Budget: budget}, nil
	}
	return Advice{Kind: AdviceAsk}, nil
}

// gapMessage ends a diagnostic about a gap: what to write (todo, e.g. "add
// it with …"), and what the interview will do about it.
func (a Advice) gapMessage(todo string) string {
	switch a.Kind {
	case AdvicePending:
		return fmt.Sprintf("%s, or answer %s in the scratch pad, which asks for it.", todo, entryName(a.Entry))
	case AdviceCoveredByOther:
		return fmt.Sprintf("%s already says enough about it, so the interview records that instead of asking, and finishing the interview writes it (or %s).",
			entryName(a.Entry), todo)
	case AdviceSkipped:
		return fmt.Sprintf("%s was skipped, so the interview will not ask again: %s.", entryName(a.Entry), todo)
	case AdviceAsked:
		return fmt.Sprintf("%s asked about it already, so the interview will not ask again: %s.", entryName(a.Entry), todo)
	case AdviceBudgetSpent:
		return fmt.Sprintf("the interview's question budget (%d) is spent, so it will not ask: %s.", a.Budget, todo)
	}
	return todo + ", or ask the next interview question."
}

// entryName names an entry in a message: "Q2 (Target Users)", "Q4" for
// bootstrap's "### Q4: Skipped", the heading's text for an unnumbered one.
func entryName(e *Entry) string {
	switch {
	case e.Number == 0:
		return fmt.Sprintf("the entry %q", e.Topic)
	case strings.EqualFold(strings.TrimSpace(e.Topic), "skipped"):
		return fmt.Sprintf("Q%d", e.Number)
	}
	return fmt.Sprintf("Q%d (%s)", e.Number, e.Topic)
}
