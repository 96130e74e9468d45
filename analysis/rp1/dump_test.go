package rp1

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// dump renders what Parse found in a stable, reviewable text form. Positions
// are 1-based line:column (UTF-16 columns, as editors show them).
func dump(ch *Charter) string {
	var b strings.Builder
	at := func(s source.Span) string {
		r := ch.Index.Range(s)
		return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line+1, r.Start.Character+1, r.End.Line+1, r.End.Character+1)
	}
	if ch.Title != "" || ch.TitleSpan != (source.Span{}) {
		fmt.Fprintf(&b, "title %q %s\n", ch.Title, at(ch.TitleSpan))
	}
	for _, f := range ch.Fields {
		fmt.Fprintf(&b, "field %q = %q %s value %s\n", f.Key, f.Value, at(f.Span), at(f.ValueSpan))
	}
	for _, s := range ch.Sections {
		id := string(s.ID)
		if id == "" {
			fmt.Fprintf(&b, "section - %q %s\n", s.Heading, at(s.HeadingSpan))
			continue
		}
		fmt.Fprintf(&b, "section %s %q %s %s sentences=%d body %s\n", id, s.Heading, at(s.HeadingSpan), s.Status, s.Sentences, at(s.BodySpan))
		for _, p := range s.Problems {
			fmt.Fprintf(&b, "  problem %s %q %s\n", p.Kind, p.Text, at(p.Span))
		}
	}
	if sp := ch.ScratchPad; sp != nil {
		fmt.Fprintf(&b, "scratchpad %s mode=%q started=%q end=%v", at(sp.Span), sp.Mode, sp.Started, sp.HasEndMarker)
		if sp.HasEndMarker {
			fmt.Fprintf(&b, " %s", at(sp.EndSpan))
		}
		if sp.CutShort {
			fmt.Fprintf(&b, " cut %s", at(sp.CutSpan))
		}
		b.WriteString("\n")
		for _, e := range sp.Entries {
			state := "answered"
			switch {
			case e.Malformed():
				state = "malformed"
			case e.HasSkipped:
				state = "skipped"
			case e.Pending():
				state = "pending"
			case !e.Answered():
				state = "unanswered"
			}
			fmt.Fprintf(&b, "  entry Q%d %q %s %s\n", e.Number, e.Topic, state, at(e.Span))
			if e.HasAsked {
				fmt.Fprintf(&b, "    asked %s %q\n", at(e.AskedSpan), e.Asked)
			}
			if e.HasAnswer {
				fmt.Fprintf(&b, "    answer %s %q\n", at(e.AnswerSpan), e.Answer)
			}
			if e.HasSkipped {
				fmt.Fprintf(&b, "    skipped %s %q\n", at(e.SkippedSpan), e.Skipped)
			}
		}
	}
	if sk := ch.Skeleton; sk != nil {
		b.WriteString("format skeleton\n")
		for _, r := range sk.Regions {
			fmt.Fprintf(&b, "region %q %s", r.ID, r.State)
			if r.Heading != nil {
				fmt.Fprintf(&b, " %s body %s", at(r.Heading.Span), at(r.Body))
			}
			if r.Variant != nil {
				fmt.Fprintf(&b, " variant %q %s", r.Variant.Text, at(r.Variant.Span))
			}
			if r.Legacy != nil {
				fmt.Fprintf(&b, " legacy %q %s", r.Legacy.Text, at(r.Legacy.Span))
			}
			if n := len(r.PlaceholderLines); n > 0 {
				fmt.Fprintf(&b, " placeholder-lines=%d", n)
			}
			if n := len(r.Mixed); n > 0 {
				fmt.Fprintf(&b, " mixed=%d", n)
			}
			b.WriteString("\n")
		}
		status := "none"
		if sk.Status != nil {
			status = fmt.Sprintf("%q", sk.Status.Value)
		}
		fmt.Fprintf(&b, "status %s joined=%v expected %s gaps %v\n", status, sk.StatusJoined, sk.ExpectedStatus(), sk.Gaps())
		return b.String()
	}
	for _, g := range ch.Gaps() {
		fmt.Fprintf(&b, "gap %s %s (%s)", g.Section, g.Status, g.Charter)
		if g.CoveredBy != nil {
			fmt.Fprintf(&b, " by Q%d", g.CoveredBy.Number)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "remaining %v\n", ch.GapsRemaining())
	return b.String()
}
