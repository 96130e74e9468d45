package rp1

import (
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Lens puts the gaps remaining over a skeleton charter's title (its first
// line when it has none): clicking it asks about the first gap
// (charter.interview.region), when the charter may be edited. With no gap
// left, a label says so. A scratch-pad charter's lens is the interview's
// next step (interview.Lens).
func Lens(ch *Charter, editable bool) []feature.Lens {
	sk := ch.Skeleton
	if ch.Format != FormatSkeleton || sk == nil {
		return nil
	}
	at := ch.TitleSpan
	if at == (source.Span{}) {
		at = source.Span{Start: ch.FrontMatter.End, End: ch.FrontMatter.End}
	}
	gaps := sk.Gaps()
	switch {
	case len(gaps) == 0:
		return []feature.Lens{feature.Label(at.Start, "No gaps: every region is filled")}
	case !editable:
		return []feature.Lens{feature.Label(at.Start, fmt.Sprintf("%d of %d regions are gaps", len(gaps), len(sk.Regions)))}
	}
	title := fmt.Sprintf("%d gaps remaining: answer %s next", len(gaps), gaps[0])
	if len(gaps) == 1 {
		title = fmt.Sprintf("1 gap remaining: answer %s", gaps[0])
	}
	return []feature.Lens{{Span: source.Span{Start: at.Start, End: at.Start},
		Command: feature.Command{Title: title, Name: feature.CmdInterviewRegion, OnVersion: true}}}
}
