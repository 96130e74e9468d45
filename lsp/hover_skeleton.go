package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
)

// hoverSkeleton answers hover on an rp1 skeleton charter: on a region
// heading, whether rp1 counts the region as a gap and why (and the
// question the interview asks for it); on Scope Guardrails, its two
// regions; on the title or **Status**, the charter's state; on a heading
// meant for a region that rp1 does not read, what it looks for instead.
func (s *Server) hoverSkeleton(d *doc, sk *rp1.Skeleton, pos protocol.Position) *protocol.Hover {
	ch := d.RP1()
	ix := d.Index()
	off := ix.Offset(fromProtocolPosition(pos))
	on := func(sp source.Span) bool { return off >= sp.Start && off <= sp.End }
	var text string
	var span source.Span
	for _, r := range sk.Regions {
		switch {
		case r.Heading != nil && on(r.Heading.Span):
			text, span = regionHover(ix, r), r.Heading.Span
		case r.Variant != nil && on(r.Variant.Span):
			heading, level := rp1.RegionHeading(r.ID)
			text, span = fmt.Sprintf("**%s** is not read as the %s region: rp1 looks for `%s %s`%s, so %s is a gap.",
				feature.Escape(r.Variant.Text), r.ID, strings.Repeat("#", level), heading, underScope(r.ID), r.ID), r.Variant.Span
		case r.Legacy != nil && on(r.Legacy.Span):
			heading, level := rp1.RegionHeading(r.ID)
			text, span = fmt.Sprintf("**%s** is a scratch-pad era section: rp1's skeleton reads `%s %s`%s instead, so %s is a gap. Migrating the charter moves its text there.",
				feature.Escape(r.Legacy.Text), strings.Repeat("#", level), heading, underScope(r.ID), r.ID), r.Legacy.Span
		}
	}
	switch {
	case text != "":
	case sk.Scope != nil && on(sk.Scope.Span):
		text, span = fmt.Sprintf("**Scope Guardrails** holds two regions: Will (%s) and Won't (%s). rp1 keeps their lists as written, never merged or reordered.",
			sk.Region(rp1.RegionWill).Detail(), sk.Region(rp1.RegionWont).Detail()), sk.Scope.Span
	case ch.TitleSpan.End > ch.TitleSpan.Start && on(ch.TitleSpan):
		text, span = skeletonStateHover(sk)+"\n"+ch.Era.Reading().Markdown(), ch.TitleSpan
	case sk.Status != nil && on(sk.Status.Span):
		text, span = skeletonStateHover(sk), sk.Status.Span
	case ch.ScratchPad != nil && on(ch.ScratchPad.HeadingSpan):
		text, span = "**Scratch Pad** is left over from the scratch-pad interview: rp1's skeleton charter keeps no interview state, so its answers are not read. Migrating the charter places them in their regions.", ch.ScratchPad.HeadingSpan
	}
	if text == "" {
		return nil
	}
	r := toProtocolRange(ix.Range(span))
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}, Range: &r}
}

func underScope(id rp1.RegionID) string {
	if id.IsList() {
		return " under `## " + rp1.ScopeHeading + "`"
	}
	return ""
}

// regionHover is the markdown for a region heading.
func regionHover(ix *source.Index, r *rp1.Region) string {
	var b strings.Builder
	switch {
	case r.State == rp1.RegionEmpty && r.Placeholder.Len() > 0:
		fmt.Fprintf(&b, "**%s** — gap: it holds only `%s`, so rp1 counts it as unwritten and **Status** stays Draft.\n", r.ID, rp1.TBDMarker)
	case r.State == rp1.RegionEmpty:
		fmt.Fprintf(&b, "**%s** — gap: it is empty, so rp1 counts it as unwritten and **Status** stays Draft.\n", r.ID)
	case len(r.PlaceholderLines) > 0:
		fmt.Fprintf(&b, "**%s** — filled, but only with placeholders (line %d): rp1 counts them as content, so the charter can read Complete with nothing written. Only `%s` marks a gap.\n",
			r.ID, ix.Line(r.PlaceholderLines[0].Start)+1, rp1.TBDMarker)
	case len(r.Mixed) > 0:
		fmt.Fprintf(&b, "**%s** — filled: rp1 counts it as written, though it still holds `%s` (line %d).\n", r.ID, rp1.TBDMarker, ix.Line(r.Mixed[0].Start)+1)
	default:
		fmt.Fprintf(&b, "**%s** — filled: rp1 counts it as written.\n", r.ID)
	}
	if r.Gap() {
		fmt.Fprintf(&b, "\nThe interview asks: _%s_\n", feature.Escape(interview.RegionQuestions[r.ID]))
	}
	return b.String()
}

// skeletonStateHover is the markdown for the title and **Status**: which
// regions are gaps and what **Status** should say.
func skeletonStateHover(sk *rp1.Skeleton) string {
	var b strings.Builder
	gaps := sk.Gaps()
	fmt.Fprintf(&b, "**rp1 skeleton charter** — %d of %d regions filled", len(sk.Regions)-len(gaps), len(sk.Regions))
	if len(gaps) > 0 {
		names := make([]string, len(gaps))
		for i, g := range gaps {
			names[i] = string(g)
		}
		fmt.Fprintf(&b, "; gaps: %s", strings.Join(names, ", "))
	}
	b.WriteString(".\n\n")
	want := sk.ExpectedStatus()
	switch {
	case sk.Status == nil:
		fmt.Fprintf(&b, "There is no `**Status**` line; rp1 writes `**Status**: %s`.\n", want)
	case strings.TrimSpace(sk.Status.Value) == want:
		fmt.Fprintf(&b, "`**Status**: %s` is what the gaps call for.\n", want)
	default:
		fmt.Fprintf(&b, "`**Status**: %s` should be `%s`: rp1 rewrites it on its next run.\n", feature.CodeSafe(strings.TrimSpace(sk.Status.Value)), want)
	}
	return b.String()
}
