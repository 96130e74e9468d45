package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// codeLensCharters puts a .charters/ charter's progress over the section
// that holds it: "3/5 pass" over ## Criteria, "phase 2 of 4" over
// ## Phases. The lenses are labels.
func (s *Server) codeLensCharters(d *doc) []protocol.CodeLens {
	c := d.charter()
	ix := d.Index()
	label := func(at source.Span, title string) protocol.CodeLens {
		return protocol.CodeLens{Range: toProtocolRange(ix.Range(source.Span{Start: at.Start, End: at.Start})), Command: protocol.Command{Title: title}}
	}
	switch {
	case c.Generation.FileInterface() && c.CriteriaHeading != nil:
		return []protocol.CodeLens{label(*c.CriteriaHeading, c.CriteriaSummary())}
	case c.Generation == charterfile.PH && c.PhasesSection.Found:
		return []protocol.CodeLens{label(c.PhasesSection.HeadingSpan, c.PhasesSummary())}
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
