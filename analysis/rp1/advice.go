package rp1

import (
	"fmt"
	"strings"
)

// The scratch-pad interview (package interview) asks about each gap once, in
// priority order, until its budget is spent; a gap an earlier answer already
// addresses is recorded as covered (skip) instead of asked. A diagnostic on
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
	// AdviceCoveredByOther: an earlier answer (the Brain Dump, or one
	// about other sections) addresses it; the interview records that
	// rather than asking, and finishing writes the section from it.
	AdviceCoveredByOther AdviceKind = "covered-by-other"
	// AdviceSkipped: its question was skipped; it is never asked again.
	AdviceSkipped AdviceKind = "skipped"
	// AdviceAsked: an entry already asked about it but answers nothing (an
	// answer that declines, such as "I don't know", or an unnumbered
	// heading); it is never asked again.
	AdviceAsked AdviceKind = "asked"
	// AdviceBudgetSpent: the scratch pad holds as many questions as the
	// budget allows; the interview finishes instead of asking.
	AdviceBudgetSpent AdviceKind = "budget-spent"
)

// InterviewAdvice says what the scratch-pad interview will do about gap g
// (a section of QA.Gaps that is a GAP), deciding as the interview's engine
// does: an entry that asked about the section (answered, skipped or
// pending) is never asked again; a gap an earlier answer addresses is
// skipped; past the budget nothing is asked.
func (qa *QA) InterviewAdvice(g Gap, budget int) Advice {
	if budget <= 0 {
		budget = DefaultQuestionBudget
	}
	switch asked := g.AskedBy; {
	case asked != nil && asked.Pending():
		return Advice{Kind: AdvicePending, Entry: asked}
	case asked != nil && asked.HasSkipped && !asked.Answered():
		return Advice{Kind: AdviceSkipped, Entry: asked}
	case asked != nil:
		return Advice{Kind: AdviceAsked, Entry: asked}
	}
	if g.AddressedBy != nil {
		return Advice{Kind: AdviceCoveredByOther, Entry: g.AddressedBy}
	}
	if len(qa.Entries) >= budget {
		return Advice{Kind: AdviceBudgetSpent, Budget: budget}
	}
	return Advice{Kind: AdviceAsk}
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
