package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
)

// codeLensRP1 puts the interview's next step above the scratch pad (or the
// title, before an interview starts): "Next question: Q3 Value Proposition"
// (runs charter.interview.next), "Q3 awaits an answer", or "Finish
// interview". A charter with no gaps and no scratch pad gets none.
func (s *Server) codeLensRP1(d *doc) []protocol.CodeLens {
	ch := d.RP1()
	r := interview.Next(d.Text, true, interview.Options{Budget: s.Config().Budget(), Path: d.Path})
	at := ch.TitleSpan
	if ch.ScratchPad != nil {
		at = ch.ScratchPad.HeadingSpan
	}
	ix := d.Index()
	rng := toProtocolRange(ix.Range(source.Span{Start: at.Start, End: at.Start}))
	args := commandArgs(interviewArgs{URI: d.URI, Version: &d.Version})
	lens := func(title, command string) protocol.CodeLens {
		return protocol.CodeLens{Range: rng, Command: protocol.Command{Title: title, Command: command, Arguments: args}}
	}
	switch {
	case r.Type == interview.TypeNextQuestion && r.Pending != nil:
		// A lens without a command is a label; pointing it at the answer
		// would need a client-side command, so it stays a label.
		e := r.Pending
		return []protocol.CodeLens{{
			Range:   toProtocolRange(ix.Range(source.Span{Start: e.HeadingSpan.Start, End: e.HeadingSpan.Start})),
			Command: protocol.Command{Title: fmt.Sprintf("Q%d awaits an answer", e.Number)},
		}}
	case r.Type == interview.TypeNextQuestion:
		return []protocol.CodeLens{lens(fmt.Sprintf("Next question: Q%d %s", r.Metadata.QuestionNumber, r.Topic), cmdInterviewNext)}
	case r.Type == interview.TypeSkip:
		return []protocol.CodeLens{lens(fmt.Sprintf("Next: record Q%d %s as already covered", r.Metadata.QuestionNumber, r.Topic), cmdInterviewNext)}
	case r.Type == interview.TypeSuccess && ch.ScratchPad != nil:
		return []protocol.CodeLens{lens("Finish interview", cmdInterviewFinish)}
	}
	return nil
}

// codeLensSkeleton puts the gaps remaining over a skeleton charter's title
// (its first line when it has none): clicking it asks about the first gap
// (charter.interview.region). With no gap left, a label says so.
func (s *Server) codeLensSkeleton(d *doc, sk *rp1.Skeleton) []protocol.CodeLens {
	ch := d.RP1()
	ix := d.Index()
	at := ch.TitleSpan
	if at == (source.Span{}) {
		at = source.Span{Start: ch.FrontMatter.End, End: ch.FrontMatter.End}
	}
	rng := toProtocolRange(ix.Range(source.Span{Start: at.Start, End: at.Start}))
	gaps := sk.Gaps()
	if len(gaps) == 0 {
		return []protocol.CodeLens{{Range: rng, Command: protocol.Command{Title: "No gaps: every region is filled"}}}
	}
	title := fmt.Sprintf("%d gaps remaining: answer %s next", len(gaps), gaps[0])
	if len(gaps) == 1 {
		title = fmt.Sprintf("1 gap remaining: answer %s", gaps[0])
	}
	if !s.InWorkspaceURI(d.URI) {
		return []protocol.CodeLens{{Range: rng, Command: protocol.Command{Title: fmt.Sprintf("%d of %d regions are gaps", len(gaps), len(sk.Regions))}}}
	}
	return []protocol.CodeLens{{Range: rng, Command: protocol.Command{Title: title, Command: cmdInterviewRegion,
		Arguments: commandArgs(regionArgs{URI: d.URI, Version: &d.Version})}}}
}
