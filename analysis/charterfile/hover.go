package charterfile

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Hover explains what lies at off in the folder's charter.md (ix is its
// line index): on a criterion heading or a Depends id, the criterion
// (status, note, what it depends on and what depends on it, staleness and
// failures from the journal); on a phase, its state and why; on a section
// heading, what upstream reads there; on the title, which generation it is
// read as and why.
func Hover(v *View, ix *source.Index, off int) *feature.Hover {
	c := v.Charter
	if c == nil {
		return nil
	}
	var text string
	var span source.Span
	switch {
	case criterionHeadingAt(c, off) != nil:
		cr := criterionHeadingAt(c, off)
		text, span = criterionHover(v, cr), cr.HeadingSpan
	default:
		if id, at, target := c.DependsAt(off); id != "" {
			span = at
			if target == nil {
				text = fmt.Sprintf("`%s` names no criterion of this charter: pi-charter reports it as an unknown dependency and does not wait for it.", feature.CodeSafe(id))
			} else {
				text = criterionHover(v, target)
			}
		} else if ph, n := c.PhaseAt(off); ph != nil {
			text, span = phaseHover(c, ph, n), ph.ItemSpan
		} else if name, ok := c.SectionAt(off); ok {
			text, span = sectionHover(v, name), ix.LineSpan(ix.Line(off))
			if name == SectionObjective && c.Objective.HeadingSpan.Start <= off && off <= c.Objective.HeadingSpan.End {
				text += "\n" + v.Era.Reading().Markdown()
			}
		} else if title, ok := c.TitleLine(); ok && title.Start <= off && off <= title.End {
			text, span = v.Era.Reading().Markdown(), title
		}
	}
	if text == "" {
		return nil
	}
	return &feature.Hover{Span: span, Markdown: text}
}

func criterionHeadingAt(c *Charter, off int) *Criterion {
	if cr, head := c.CriterionAt(off); cr != nil && head {
		return cr
	}
	return nil
}

// criterionHover is the markdown for a criterion.
func criterionHover(v *View, cr *Criterion) string {
	c := v.Charter
	var b strings.Builder
	if c.Criterion(cr.ID) != cr {
		first := c.Criterion(cr.ID)
		fmt.Fprintf(&b, "**%s. %s** is a duplicate id: pi-charter ignores this block (the first %s, line %d, counts).\n",
			cr.ID, feature.Escape(cr.Title), cr.ID, first.Line)
		return b.String()
	}
	fmt.Fprintf(&b, "**%s. %s** — `%s`\n\n", cr.ID, feature.Escape(cr.Title), cr.Status)
	if cr.Note != "" {
		fmt.Fprintf(&b, "%s\n\n", feature.Escape(oneLineNote(cr.Note)))
	} else if cr.Status == StatusPass {
		b.WriteString("_No note: completion needs one saying what was run and what it showed._\n\n")
	}
	switch {
	case cr.StatusLine == nil && c.Generation == FI14:
		b.WriteString("No `Evidence:` line: pi-charter reads it as `none`.\n\n")
	case cr.StatusLine == nil:
		b.WriteString("No `Status:` line: pi-charter reads it as `pending`.\n\n")
	case cr.Legacy:
		b.WriteString("Read from a legacy `Evidence:` line (`none` reads as `pending`).\n\n")
	}
	if len(cr.Depends) > 0 {
		b.WriteString("Depends on: " + criteriaList(c, cr.Depends) + "\n\n")
	}
	if deps := c.Dependents(cr.ID); len(deps) > 0 {
		ids := make([]string, len(deps))
		for i, x := range deps {
			ids[i] = x.ID
		}
		b.WriteString("Needed by: " + criteriaList(c, ids) + "\n\n")
	}
	if cr.Status != StatusPass {
		if waiting := c.Waiting(cr); len(waiting) > 0 {
			ids := make([]string, len(waiting))
			for i, x := range waiting {
				ids[i] = x.ID
			}
			fmt.Fprintf(&b, "Waiting on %s.\n\n", strings.Join(ids, ", "))
		} else {
			b.WriteString("Ready: every criterion it depends on passes.\n\n")
		}
	}
	if v.Stale[cr.ID] {
		b.WriteString("**⚠ Stale:** the journal records a source change after this pass; check it again.\n\n")
	}
	if n := v.FailCounts[cr.ID]; n > 0 {
		fmt.Fprintf(&b, "The journal records it failing %s.\n\n", feature.Count(n, "time"))
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// criteriaList names criteria with their status: "C1 (pass), C2 (pending)".
func criteriaList(c *Charter, ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		if x := c.Criterion(id); x != nil {
			parts[i] = fmt.Sprintf("%s (%s)", id, x.Status)
		} else {
			parts[i] = fmt.Sprintf("%s (no such criterion)", feature.Escape(id))
		}
	}
	return strings.Join(parts, ", ")
}

// oneLineNote shortens a note for the hover's first lines.
func oneLineNote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		return string(r[:300]) + "…"
	}
	return s
}

// phaseHover is the markdown for a phase item.
func phaseHover(c *Charter, ph *Phase, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Phase %d of %d: %s** — `%s`\n\n", n, len(c.Phases), feature.Escape(ph.Title), ph.Status)
	switch {
	case ph.Explicit:
		fmt.Fprintf(&b, "Set by its ` — %s` suffix.\n", ph.Status)
	case ph.Status == PhaseCurrent:
		b.WriteString("Inferred: no phase is marked ` — current`, so the first phase that is not done is current.\n")
	default:
		b.WriteString("Inferred: a phase without a suffix is upcoming.\n")
	}
	b.WriteString("\nA phase's status is the end of its line: a space, an em dash (—) and `upcoming`, `current` or `done`.\n")
	return b.String()
}

// sectionHoverCharters is the markdown for a section heading.
func sectionHover(v *View, name SectionName) string {
	c := v.Charter
	var b strings.Builder
	switch name {
	case SectionObjective:
		b.WriteString("**Objective** — what pi-charter reads as the charter's goal.\n\n")
		if c.Objective.Text == "" {
			b.WriteString("It is empty: pi-charter warns, and shows `state.json`'s objective instead.\n")
		} else {
			fmt.Fprintf(&b, "> %s\n", feature.Escape(oneLineNote(c.Objective.Text)))
		}
		line, heading, kept := c.ObjectiveEnd()
		if len(kept) > 0 {
			fmt.Fprintf(&b, "\nIt keeps %s: pi-charter reads them as part of the Objective.\n", feature.CodeList(kept))
		}
		if line >= 0 {
			fmt.Fprintf(&b, "\nIt ends at line %d, `%s`.\n", line+1, feature.CodeSafe(heading))
		}
		if c.Objective.Text == "" && v.State != nil && v.State.Objective != "" {
			fmt.Fprintf(&b, "\n`state.json`: %s\n", feature.Escape(oneLineNote(v.State.Objective)))
		}
	case SectionCriteria:
		fmt.Fprintf(&b, "**Criteria** — %s", c.CriteriaSummary())
		if c.Generation.FileInterface() {
			var parts []string
			for _, tok := range StatusTokens(c.Generation, "Status") {
				if n := statusCount(c, tok); n > 0 && tok != StatusPass {
					parts = append(parts, fmt.Sprintf("%d %s", n, tok))
				}
			}
			if len(parts) > 0 {
				b.WriteString(" · " + strings.Join(parts, " · "))
			}
			if ready := c.Ready(); len(ready) > 0 {
				ids := make([]string, len(ready))
				for i, cr := range ready {
					ids[i] = cr.ID
				}
				fmt.Fprintf(&b, "\n\nReady next: %s", strings.Join(ids, ", "))
			}
		}
		b.WriteString("\n")
	case SectionPhases:
		fmt.Fprintf(&b, "**Phases** — %s\n", c.PhasesSummary())
		if ph, n := c.CurrentPhase(); ph != nil {
			fmt.Fprintf(&b, "\nCurrent: %d. %s\n", n, feature.Escape(ph.Title))
		}
	case SectionReferences, SectionScope:
		sec := c.References
		if name == SectionScope {
			sec = c.Scope
		}
		fmt.Fprintf(&b, "**%s** — read by pi-charter as the charter's %s", name, strings.ToLower(string(name)))
		if sec.Text == "" {
			b.WriteString("; it is empty")
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// statusCount counts the criteria whose status is tok.
func statusCount(c *Charter, tok Status) int {
	n := 0
	for _, cr := range c.Criteria {
		if cr.Status == tok {
			n++
		}
	}
	return n
}
