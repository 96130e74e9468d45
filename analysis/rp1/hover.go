package rp1

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Hover explains what lies at off in an rp1 charter, read in its
// generation. In a scratch-pad charter: on a section heading, its status
// and what is missing; on a scratch pad entry, what the interviewer makes
// of it. In a skeleton charter: on a region heading, whether rp1 counts the
// region as a gap and why (and the question the interview asks for it,
// from questions); on Scope Guardrails, its two regions; on the title or
// **Status**, the charter's state; on a heading meant for a region that rp1
// does not read, what it looks for instead. On the title of either, which
// generation it is read as and why.
func Hover(ch *Charter, off int, questions map[RegionID]string) *feature.Hover {
	var text string
	var span source.Span
	if ch.Format == FormatSkeleton && ch.Skeleton != nil {
		text, span = skeletonHover(ch, ch.Skeleton, off, questions)
	} else {
		text, span = scratchPadHover(ch, off)
	}
	if text == "" {
		return nil
	}
	return &feature.Hover{Span: span, Markdown: text}
}

// scratchPadHover is the hover of a scratch-pad charter.
func scratchPadHover(ch *Charter, off int) (string, source.Span) {
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
	return text, span
}

// skeletonHover is the hover of a skeleton charter.
func skeletonHover(ch *Charter, sk *Skeleton, off int, questions map[RegionID]string) (string, source.Span) {
	ix := ch.Index
	on := func(sp source.Span) bool { return off >= sp.Start && off <= sp.End }
	var text string
	var span source.Span
	for _, r := range sk.Regions {
		switch {
		case r.Heading != nil && on(r.Heading.Span):
			text, span = regionHover(ix, r, questions), r.Heading.Span
		case r.Variant != nil && on(r.Variant.Span):
			heading, level := RegionHeading(r.ID)
			text, span = fmt.Sprintf("**%s** is not read as the %s region: rp1 looks for `%s %s`%s, so %s is a gap.",
				feature.Escape(r.Variant.Text), r.ID, strings.Repeat("#", level), heading, underScope(r.ID), r.ID), r.Variant.Span
		case r.Legacy != nil && on(r.Legacy.Span):
			heading, level := RegionHeading(r.ID)
			text, span = fmt.Sprintf("**%s** is a scratch-pad era section: rp1's skeleton reads `%s %s`%s instead, so %s is a gap. Migrating the charter moves its text there.",
				feature.Escape(r.Legacy.Text), strings.Repeat("#", level), heading, underScope(r.ID), r.ID), r.Legacy.Span
		}
	}
	switch {
	case text != "":
	case sk.Scope != nil && on(sk.Scope.Span):
		text, span = fmt.Sprintf("**Scope Guardrails** holds two regions: Will (%s) and Won't (%s). rp1 keeps their lists as written, never merged or reordered.",
			sk.Region(RegionWill).Detail(), sk.Region(RegionWont).Detail()), sk.Scope.Span
	case ch.TitleSpan.End > ch.TitleSpan.Start && on(ch.TitleSpan):
		text, span = skeletonStateHover(sk)+"\n"+ch.Era.Reading().Markdown(), ch.TitleSpan
	case sk.Status != nil && on(sk.Status.Span):
		text, span = skeletonStateHover(sk), sk.Status.Span
	case ch.ScratchPad != nil && on(ch.ScratchPad.HeadingSpan):
		text, span = "**Scratch Pad** is left over from the scratch-pad interview: rp1's skeleton charter keeps no interview state, so its answers are not read. Migrating the charter places them in their regions.", ch.ScratchPad.HeadingSpan
	}
	return text, span
}

// sectionHover is the markdown for a section heading.
func sectionHover(ch *Charter, sec *Section) string {
	var b strings.Builder
	if sec.ID == "" {
		fmt.Fprintf(&b, "**%s** is not one of the five charter sections; the interview and the checks ignore it.", sec.Heading)
		return b.String()
	}
	fmt.Fprintf(&b, "**%s** (`%s`): **%s**", sec.Heading, sec.ID, sec.Status)
	if sec.Status == StatusComplete {
		fmt.Fprintf(&b, ", %d sentences.", sec.Sentences)
	}
	b.WriteString("\n")
	if sec.Status == StatusEmpty && len(sec.Problems) == 0 {
		b.WriteString("\nMissing: any content under the heading.\n")
	}
	if len(sec.Problems) > 0 {
		b.WriteString("\nMissing:\n")
		for _, p := range sec.Problems {
			line := ch.Index.Position(p.Span.Start).Line + 1
			switch p.Kind {
			case ProblemTBD:
				fmt.Fprintf(&b, "- real text instead of the `%s` marker (line %d)\n", p.Text, line)
			case ProblemPlaceholder:
				fmt.Fprintf(&b, "- real text instead of the placeholder `%s` (line %d)\n", p.Text, line)
			case ProblemFewSentence:
				fmt.Fprintf(&b, "- at least two sentences (it has %d)\n", sec.Sentences)
			}
		}
	}
	for _, g := range ch.Gaps() {
		if g.Section == sec.ID && g.Status == GapCoveredByQA && g.CoveredBy != nil {
			fmt.Fprintf(&b, "\nQ%d (%s) in the scratch pad answers it: finish the interview to write it here.\n",
				g.CoveredBy.Number, g.CoveredBy.Topic)
		}
	}
	return b.String()
}

// entryHover is the markdown for a scratch pad entry heading.
func entryHover(ch *Charter, e *Entry) string {
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
	case IsBrainDump(e.Topic):
		b.WriteString(" It is the open first question: each of its sentences goes to the section its words name, the rest to Problem & Context.")
	case len(topic) > 0:
		fmt.Fprintf(&b, " It covers %s.", sectionList(topic))
	case IsProjectName(e.Topic):
		b.WriteString(" It names the project: finishing the interview writes it into the title.")
	default:
		b.WriteString(" Its topic names no charter section, so it covers none by itself.")
	}
	// What the interview reads in it (QA, the one reading).
	var cued []SectionID
	qa := ch.QA()
	for _, id := range Priority {
		if hasSection(topic, id) || IsBrainDump(e.Topic) {
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

func sectionList(ids []SectionID) string {
	if len(ids) == 0 {
		return "no section"
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = fmt.Sprintf("%s (`%s`)", CanonicalHeading[id], id)
	}
	return strings.Join(names, ", ")
}

func hasSection(ids []SectionID, id SectionID) bool {
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

func underScope(id RegionID) string {
	if id.IsList() {
		return " under `## " + ScopeHeading + "`"
	}
	return ""
}

// regionHover is the markdown for a region heading.
func regionHover(ix *source.Index, r *Region, questions map[RegionID]string) string {
	var b strings.Builder
	switch {
	case r.State == RegionEmpty && r.Placeholder.Len() > 0:
		fmt.Fprintf(&b, "**%s** — gap: it holds only `%s`, so rp1 counts it as unwritten and **Status** stays Draft.\n", r.ID, TBDMarker)
	case r.State == RegionEmpty:
		fmt.Fprintf(&b, "**%s** — gap: it is empty, so rp1 counts it as unwritten and **Status** stays Draft.\n", r.ID)
	case len(r.PlaceholderLines) > 0:
		fmt.Fprintf(&b, "**%s** — filled, but only with placeholders (line %d): rp1 counts them as content, so the charter can read Complete with nothing written. Only `%s` marks a gap.\n",
			r.ID, ix.Line(r.PlaceholderLines[0].Start)+1, TBDMarker)
	case len(r.Mixed) > 0:
		fmt.Fprintf(&b, "**%s** — filled: rp1 counts it as written, though it still holds `%s` (line %d).\n", r.ID, TBDMarker, ix.Line(r.Mixed[0].Start)+1)
	default:
		fmt.Fprintf(&b, "**%s** — filled: rp1 counts it as written.\n", r.ID)
	}
	if r.Gap() {
		fmt.Fprintf(&b, "\nThe interview asks: _%s_\n", feature.Escape(questions[r.ID]))
	}
	return b.String()
}

// skeletonStateHover is the markdown for the title and **Status**: which
// regions are gaps and what **Status** should say.
func skeletonStateHover(sk *Skeleton) string {
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
