package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// hoverRP1 answers hover on an rp1 charter: on a section heading, its status
// and what is missing; on a scratch pad entry, what the interviewer makes of
// it.
func (s *Server) hoverRP1(d *doc, pos protocol.Position) *protocol.Hover {
	ch := d.RP1()
	ix := ch.Index
	off := ix.Offset(fromProtocolPosition(pos))
	at := func(sp source.Span) bool { return sp.Start <= off && off <= sp.End }

	var text string
	var span source.Span
	for _, sec := range ch.Sections {
		if at(sec.HeadingSpan) {
			text, span = sectionHover(ch, sec), sec.HeadingSpan
		}
	}
	if text == "" && ch.TitleSpan.End > ch.TitleSpan.Start && at(ch.TitleSpan) {
		text, span = ch.Era.Reading().Markdown(), ch.TitleSpan
	}
	if pad := ch.ScratchPad; pad != nil && text == "" {
		for _, e := range pad.Entries {
			if at(e.HeadingSpan) {
				text, span = entryHover(ch, e), e.HeadingSpan
			}
		}
	}
	if text == "" {
		return nil
	}
	r := toProtocolRange(ix.Range(span))
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}, Range: &r}
}

// sectionHover is the markdown for a section heading.
func sectionHover(ch *rp1.Charter, sec *rp1.Section) string {
	var b strings.Builder
	if sec.ID == "" {
		fmt.Fprintf(&b, "**%s** is not one of the five charter sections; the interview and the checks ignore it.", sec.Heading)
		return b.String()
	}
	fmt.Fprintf(&b, "**%s** (`%s`): **%s**", sec.Heading, sec.ID, sec.Status)
	if sec.Status == rp1.StatusComplete {
		fmt.Fprintf(&b, ", %d sentences.", sec.Sentences)
	}
	b.WriteString("\n")
	if sec.Status == rp1.StatusEmpty && len(sec.Problems) == 0 {
		b.WriteString("\nMissing: any content under the heading.\n")
	}
	if len(sec.Problems) > 0 {
		b.WriteString("\nMissing:\n")
		for _, p := range sec.Problems {
			line := ch.Index.Position(p.Span.Start).Line + 1
			switch p.Kind {
			case rp1.ProblemTBD:
				fmt.Fprintf(&b, "- real text instead of the `%s` marker (line %d)\n", p.Text, line)
			case rp1.ProblemPlaceholder:
				fmt.Fprintf(&b, "- real text instead of the placeholder `%s` (line %d)\n", p.Text, line)
			case rp1.ProblemFewSentence:
				fmt.Fprintf(&b, "- at least two sentences (it has %d)\n", sec.Sentences)
			}
		}
	}
	for _, g := range ch.Gaps() {
		if g.Section == sec.ID && g.Status == rp1.GapCoveredByQA && g.CoveredBy != nil {
			fmt.Fprintf(&b, "\nQ%d (%s) in the scratch pad answers it: finish the interview to write it here.\n",
				g.CoveredBy.Number, g.CoveredBy.Topic)
		}
	}
	return b.String()
}

// entryHover is the markdown for a scratch pad entry heading.
func entryHover(ch *rp1.Charter, e *rp1.Entry) string {
	name := fmt.Sprintf("Q%d (%s)", e.Number, e.Topic)
	switch {
	case e.Number == 0:
		return fmt.Sprintf("**Ignored**: the heading is not `### Q{N}: {Topic}`, so the interviewer cannot number it (next number: Q%d).",
			ch.ScratchPad.LastNumber()+1)
	case e.Malformed():
		return fmt.Sprintf("**%s is ignored**: it has none of `**Asked**`, `**Answer**` or `**Skipped**`, so the interviewer skips it.", name)
	case e.HasSkipped:
		return fmt.Sprintf("**%s was skipped**: %s\n\nThe interviewer will not ask about %s again.",
			name, orDash(e.Skipped), sectionList(e.Sections()))
	case e.Pending():
		return fmt.Sprintf("**%s awaits an answer**: write it after `**Answer**:`. Until then the next interview action repeats this question.", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s is answered.**", name)
	topic := e.Sections()
	switch {
	case rp1.IsBrainDump(e.Topic):
		b.WriteString(" It is the open first question: each of its sentences goes to the section its words name, the rest to Problem & Context.")
	case len(topic) > 0:
		fmt.Fprintf(&b, " It covers %s.", sectionList(topic))
	case rp1.IsProjectName(e.Topic):
		b.WriteString(" It names the project: finishing the interview writes it into the title.")
	default:
		b.WriteString(" Its topic names no charter section, so it covers none by itself.")
	}
	// What the interview reads in it (rp1.QA, the one reading).
	var cued []rp1.SectionID
	qa := ch.QA()
	for _, id := range rp1.Priority {
		if hasSection(topic, id) || rp1.IsBrainDump(e.Topic) {
			continue
		}
		for _, s := range qa.Said(id) {
			if s.Entry == e {
				cued = append(cued, id)
				break
			}
		}
	}
	if len(cued) > 0 {
		fmt.Fprintf(&b, "\n\nSome of its sentences are about %s: the interviewer skips those questions and writes those sentences there.", sectionList(cued))
	}
	return b.String()
}

func sectionList(ids []rp1.SectionID) string {
	if len(ids) == 0 {
		return "no section"
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = fmt.Sprintf("%s (`%s`)", rp1.CanonicalHeading[id], id)
	}
	return strings.Join(names, ", ")
}

func hasSection(ids []rp1.SectionID, id rp1.SectionID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
