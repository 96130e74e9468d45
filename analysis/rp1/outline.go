package rp1

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/outline"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// SkeletonOutline is a skeleton charter as rp1 reads it: the title, the
// seven required regions with their state (Will and Won't inside Scope
// Guardrails), and the other headings marked as what they are to rp1 (a
// near miss of a region heading, a scratch-pad-era name, a leftover
// scratch pad, a section kept as it is). A region whose heading is missing
// has no place in the outline; the title's detail counts it.
func SkeletonOutline(ch *Charter) []*outline.Symbol {
	sk := ReadSkeleton(ch)
	src := ch.Index.Source()
	hs := scanHeadings(ch)
	end := func(i int) int { // the body of hs[i] runs to here
		for j := i + 1; j < len(hs); j++ {
			if hs[j].Level <= hs[i].Level {
				return hs[j].Span.Start
			}
		}
		return len(src)
	}
	region := map[int]*Region{}   // heading start → region
	variant := map[int]*Region{}  // heading start → the region it misses
	legacy := map[int][]*Region{} // heading start → regions it holds under an old name
	for _, r := range sk.Regions {
		switch {
		case r.Heading != nil:
			region[r.Heading.Span.Start] = r
		case r.Variant != nil:
			variant[r.Variant.Span.Start] = r
		case r.Legacy != nil:
			legacy[r.Legacy.Span.Start] = append(legacy[r.Legacy.Span.Start], r)
		}
	}
	var syms []*outline.Symbol
	titled := false
	for i, h := range hs {
		if h.Level > 3 {
			continue
		}
		s := &outline.Symbol{Name: h.Text, Kind: outline.Heading,
			Span: source.Span{Start: h.Span.Start, End: end(i)}, Heading: h.Span}
		switch {
		case h.Level == 1 && !titled:
			titled = true
			s.Kind, s.Detail = outline.Title, skeletonSummary(sk)
		case region[h.Span.Start] != nil:
			s.Kind, s.Detail = outline.Region, region[h.Span.Start].Detail()
		case sk.Scope != nil && h.Span == sk.Scope.Span:
			s.Kind, s.Detail = outline.Section, scopeDetail(sk)
		case variant[h.Span.Start] != nil:
			r := variant[h.Span.Start]
			text, level := RegionHeading(r.ID)
			s.Detail = fmt.Sprintf("not read as %s: rp1 looks for %s %s", r.ID, hashes(level), text)
		case legacy[h.Span.Start] != nil:
			r := legacy[h.Span.Start][0]
			text, level := RegionHeading(r.ID)
			s.Detail = fmt.Sprintf("scratch-pad era name: rp1 reads %s %s", hashes(level), text)
		case ch.ScratchPad != nil && h.Span == ch.ScratchPad.HeadingSpan:
			s.Span.End = max(s.Span.End, ch.ScratchPad.Span.End)
			s.Detail = "legacy scratch pad: rp1 ignores it"
		case h.Level <= 2:
			s.Detail = "not a region: kept as it is"
		}
		syms = append(syms, s)
	}
	return outline.Nest(syms)
}

func hashes(n int) string { return "######"[:n] }

// Detail is a region's state in a few words.
func (r *Region) Detail() string {
	switch {
	case r.State == RegionMissing:
		return "gap: missing"
	case r.State == RegionEmpty && r.Placeholder.Len() > 0:
		return "gap: " + TBDMarker + " only"
	case r.State == RegionEmpty:
		return "gap: empty"
	case len(r.PlaceholderLines) > 0:
		return "filled with placeholders only"
	case len(r.Mixed) > 0:
		return "filled, " + TBDMarker + " left"
	}
	return "filled"
}

// skeletonSummary is the charter's state: regions filled, and the status.
func skeletonSummary(sk *Skeleton) string {
	filled := len(sk.Regions) - len(sk.Gaps())
	s := fmt.Sprintf("%d/%d regions filled", filled, len(sk.Regions))
	if sk.Status != nil && sk.Status.Value != sk.ExpectedStatus() {
		return s + fmt.Sprintf(" · **Status** %s, should be %s", sk.Status.Value, sk.ExpectedStatus())
	}
	return s + " · " + sk.ExpectedStatus()
}

// scopeDetail is Scope Guardrails' state: how many of Will and Won't are
// gaps.
func scopeDetail(sk *Skeleton) string {
	gaps := 0
	for _, id := range []RegionID{RegionWill, RegionWont} {
		if sk.Region(id).Gap() {
			gaps++
		}
	}
	switch gaps {
	case 0:
		return "filled"
	case 1:
		return "1 gap"
	}
	return "2 gaps"
}

// Outline is the charter's outline in its generation: a skeleton charter's
// (SkeletonOutline); a scratch-pad charter's title holding the sections
// (status in the detail) and the scratch pad, which holds its entries
// (answered, skipped, pending or malformed).
func Outline(ch *Charter) []*outline.Symbol {
	if ch.Format == FormatSkeleton && ch.Skeleton != nil {
		return SkeletonOutline(ch)
	}
	src := ch.Index.Source()
	var body []*outline.Symbol
	for _, sec := range ch.Sections {
		body = append(body, &outline.Symbol{Name: sec.Heading, Detail: sectionDetail(sec), Kind: outline.Section,
			Span: source.Span{Start: sec.HeadingSpan.Start, End: sec.BodySpan.End}, Heading: sec.HeadingSpan})
	}
	if pad := ch.ScratchPad; pad != nil {
		detail := "interview"
		if pad.Mode != "" {
			detail += " · " + pad.Mode
		}
		sp := &outline.Symbol{Name: "Scratch Pad", Detail: detail, Kind: outline.Heading, Span: pad.Span, Heading: pad.HeadingSpan}
		for _, e := range pad.Entries {
			name := fmt.Sprintf("Q%d: %s", e.Number, e.Topic)
			if e.Number == 0 {
				name = strings.TrimSpace(strings.TrimLeft(string(src[e.HeadingSpan.Start:e.HeadingSpan.End]), "#"))
			}
			sp.Children = append(sp.Children, &outline.Symbol{Name: name, Detail: entryState(e), Kind: outline.Entry, Span: e.Span, Heading: e.HeadingSpan})
		}
		body = append(body, sp)
	}
	if ch.Title == "" && ch.TitleSpan == (source.Span{}) {
		return body
	}
	return []*outline.Symbol{{Name: ch.Title, Detail: "charter", Kind: outline.Title,
		Span: source.Span{Start: ch.TitleSpan.Start, End: len(src)}, Heading: ch.TitleSpan, Children: body}}
}

// sectionDetail: the section id and status, and why it is partial.
func sectionDetail(sec *Section) string {
	if sec.ID == "" {
		return ""
	}
	detail := string(sec.ID) + " · " + string(sec.Status)
	var why []string
	for _, p := range sec.Problems {
		switch p.Kind {
		case ProblemFewSentence:
			why = append(why, "too few sentences")
		default:
			why = append(why, p.Text)
		}
	}
	if len(why) > 0 {
		detail += ": " + strings.Join(why, ", ")
	}
	return detail
}

// entryState says what the interviewer makes of an entry, in one word.
func entryState(e *Entry) string {
	switch {
	case e.Number == 0, e.Malformed():
		return "malformed"
	case e.HasSkipped:
		return "skipped"
	case e.Pending():
		return "pending"
	case e.Answered():
		return "answered"
	}
	return "unanswered"
}
