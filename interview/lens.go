package interview

import (
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Lens puts the interview's next step over a scratch-pad charter's scratch
// pad (or its title, before an interview starts): "Next question: Q3 Value
// Proposition" (runs charter.interview.next), "Q3 awaits an answer" over
// the pending entry, or "Finish interview". A charter with no gaps and no
// scratch pad gets none. ch is text parsed (a skeleton charter's lens is
// rp1.Lens).
func Lens(ch *rp1.Charter, text []byte, opts Options) []feature.Lens {
	r := Next(text, true, opts)
	at := ch.TitleSpan
	if ch.ScratchPad != nil {
		at = ch.ScratchPad.HeadingSpan
	}
	lens := func(title string, command feature.CommandName) []feature.Lens {
		return []feature.Lens{{Span: source.Span{Start: at.Start, End: at.Start},
			Command: feature.Command{Title: title, Name: command, OnVersion: true}}}
	}
	switch {
	case r.Type == TypeNextQuestion && r.Pending != nil:
		// A lens without a command is a label; pointing it at the answer
		// would need a client-side command, so it stays a label.
		e := r.Pending
		return []feature.Lens{feature.Label(e.HeadingSpan.Start, fmt.Sprintf("Q%d awaits an answer", e.Number))}
	case r.Type == TypeNextQuestion:
		return lens(fmt.Sprintf("Next question: Q%d %s", r.Metadata.QuestionNumber, r.Topic), feature.CmdInterviewNext)
	case r.Type == TypeSkip:
		return lens(fmt.Sprintf("Next: record Q%d %s as already covered", r.Metadata.QuestionNumber, r.Topic), feature.CmdInterviewNext)
	case r.Type == TypeSuccess && ch.ScratchPad != nil:
		return lens("Finish interview", feature.CmdInterviewFinish)
	}
	return nil
}
