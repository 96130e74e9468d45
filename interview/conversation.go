package interview

import (
	"fmt"
	"slices"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// The interview as a conversation in an editor's prompts
// (charter.interview.turn): each turn carries out what the user chose in
// the last prompt and shows the next one. These are the prompts' words
// and choices, for every editor; the server carries them out.

// What a choice does (Choice.Do).
const (
	DoAsk    = ""       // start, or go on where the interview stands
	DoAnswer = "answer" // write the typed answer into the question (or region) asked
	DoSkip   = "skip"   // skip the question (pass over the region)
	DoFinish = "finish" // finish the interview now (scratch pad)
)

// Prompt is the next prompt, or the end of the conversation.
type Prompt struct {
	// Done: nothing more to ask; Message says how the interview ended,
	// Level is "info", "warning" or "error".
	Done    bool
	Message string
	Level   string
	// Title heads the prompt ("Q2 of 5 · Target Users"), Question is what
	// it asks, Placeholder the hint in its empty input.
	Title       string
	Question    string
	Placeholder string
	// Answer takes what the user types; Buttons are the other choices, in
	// order.
	Answer  *Choice
	Buttons []Choice
}

// Choice is a choice in a prompt and what it does.
type Choice struct {
	Do      string // DoAnswer, DoSkip, DoFinish; it names the choice too
	Label   string
	Tooltip string
	// Question is the scratch pad question it is for, Region the skeleton
	// region; an answer for a question no longer asked is refused.
	Question int
	Region   rp1.RegionID
	// Passed are the skeleton regions passed over in this conversation.
	Passed []rp1.RegionID
}

// PadPrompt is the prompt for where a scratch-pad charter's interview
// stands: r is the step's response and after the charter's text after it.
// askedBy names the interview agent that chose the question ("" for the
// built-in engine).
func PadPrompt(r Response, after []byte, path, askedBy string) Prompt {
	out := Prompt{Buttons: []Choice{}}
	switch r.Type {
	case TypeNextQuestion:
		n, topic := r.Metadata.QuestionNumber, r.Topic
		out.Title = fmt.Sprintf("Q%d of %d · %s", n, r.Metadata.TotalQuestions, topic)
		if askedBy != "" {
			out.Title += " (asked by " + askedBy + ")"
		}
		out.Question = r.NextQuestion
		out.Placeholder = "Your answer: Enter writes it into the scratch pad; Esc stops, and the question waits there for your answer"
		out.Answer = &Choice{Do: DoAnswer, Label: "Answer", Tooltip: fmt.Sprintf("Write the answer to Q%d", n), Question: n}
		out.Buttons = append(out.Buttons, Choice{Do: DoSkip, Label: "Skip",
			Tooltip: fmt.Sprintf("Skip Q%d (%s): it is recorded as skipped and not asked again", n, topic), Question: n})
		finish := Options{Budget: r.Metadata.TotalQuestions, Path: path, FinishNow: true}
		if f := Next(after, true, finish); f.Type == TypeSuccess {
			out.Buttons = append(out.Buttons, Choice{Do: DoFinish, Label: "Finish",
				Tooltip: "Finish the interview now: write the sections from the answers so far and remove the scratch pad"})
		}
	case TypeSuccess:
		out.Done, out.Level, out.Message = true, "info", FinishedMessage(r, after)
	case TypeError:
		out.Done, out.Level, out.Message = true, "error", r.Message
	default: // a skip left unrecorded (the step's bound): ask again
		out.Done, out.Level, out.Message = true, "warning", r.Message
	}
	return out
}

// NothingToAsk is the end of a conversation about a charter with every
// section written and no scratch pad.
func NothingToAsk() Prompt {
	return Prompt{Done: true, Level: "info", Message: "Every section of the charter is written: the interview has nothing to ask.", Buttons: []Choice{}}
}

// FinishedMessage says what finishing the interview wrote: after is the
// charter's text after it.
func FinishedMessage(r Response, after []byte) string {
	status := "unset"
	if f := rp1.Parse(after).Header("Status"); f != nil {
		status = f.Value
	}
	msg := fmt.Sprintf("%s The charter is finished: sections written, scratch pad removed, **Status**: %s.", r.Message, status)
	if r.Title != "" {
		msg += fmt.Sprintf(" Titled %q.", r.Title)
	}
	return msg
}

// RegionPrompt is the prompt for a skeleton charter's text: the first gap
// not passed over in this conversation, or the end (st, where the
// interview stands, says whether gaps are left for later).
func RegionPrompt(text []byte, passed []rp1.RegionID) (Prompt, SkeletonStep) {
	st := NextRegion(text)
	out := Prompt{Buttons: []Choice{}}
	var next rp1.RegionID
	for _, g := range st.Gaps {
		if !slices.Contains(passed, g) {
			next = g
			break
		}
	}
	if next == "" {
		out.Done, out.Level = true, "info"
		if len(st.Gaps) > 0 {
			out.Message = fmt.Sprintf("Left for later: %s (still %s); **Status** stays %s.", rp1.JoinRegions(st.Gaps), rp1.TBDMarker, st.Status)
		} else {
			out.Message = fmt.Sprintf("Every region of the charter is written; **Status**: %s.", st.Status)
		}
		return out, st
	}
	i := slices.Index(rp1.Regions, next)
	out.Title = fmt.Sprintf("Region %d of %d · %s", i+1, len(rp1.Regions), next)
	out.Question = RegionQuestion(text, next)
	out.Placeholder = fmt.Sprintf("Your answer: Enter writes it into %s; Esc stops, and the region stays %s", next, rp1.TBDMarker)
	out.Answer = &Choice{Do: DoAnswer, Label: "Answer", Tooltip: "Write the answer into " + string(next), Region: next, Passed: passed}
	out.Buttons = append(out.Buttons, Choice{Do: DoSkip, Label: "Skip",
		Tooltip: fmt.Sprintf("Leave %s %s for now (the charter stays Draft) and go on to the next gap", next, rp1.TBDMarker),
		Region:  next, Passed: passed})
	return out, st
}
