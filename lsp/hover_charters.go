package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/status"
)

// hoverCharters answers hover in a .charters/<id>/charter.md: on a
// criterion heading or a Depends id, the criterion (status, note, what it
// depends on and what depends on it, staleness); on a phase, its state and
// why; on a section heading, what upstream reads there.
func (s *Server) hoverCharters(d *doc, pos protocol.Position) *protocol.Hover {
	c, era := d.chartersRead()
	ix := d.Index()
	off := ix.Offset(fromProtocolPosition(pos))
	var text string
	var span source.Span
	switch {
	case criterionHeadingAt(c, off) != nil:
		cr := criterionHeadingAt(c, off)
		text, span = criterionHover(c, cr, d.chartersView()), cr.HeadingSpan
	default:
		if id, at, target := c.DependsAt(off); id != "" {
			span = at
			if target == nil {
				text = fmt.Sprintf("`%s` names no criterion of this charter: pi-charter reports it as an unknown dependency and does not wait for it.", feature.CodeSafe(id))
			} else {
				text = criterionHover(c, target, d.chartersView())
			}
		} else if ph, n := c.PhaseAt(off); ph != nil {
			text, span = phaseHover(c, ph, n), ph.ItemSpan
		} else if name, ok := c.SectionAt(off); ok {
			text, span = sectionHoverCharters(c, name, d.chartersView()), ix.LineSpan(ix.Line(off))
			if name == charterfile.SectionObjective && c.Objective.HeadingSpan.Start <= off && off <= c.Objective.HeadingSpan.End {
				text += "\n" + era.Reading().Markdown()
			}
		} else if title, ok := c.TitleLine(); ok && title.Start <= off && off <= title.End {
			text, span = era.Reading().Markdown(), title
		}
	}
	if text == "" {
		return nil
	}
	r := toProtocolRange(ix.Range(span))
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}, Range: &r}
}

// chartersView is the status of the document's charter folder (staleness
// and failures come from state.json and events.jsonl), or nil.
func (d *doc) chartersView() *status.Charter {
	v, err := status.ComputeCharter(d.snap.FS(), filepath.Dir(d.Path))
	if err != nil {
		return nil
	}
	return v
}

func criterionHeadingAt(c *charterfile.Charter, off int) *charterfile.Criterion {
	if cr, head := c.CriterionAt(off); cr != nil && head {
		return cr
	}
	return nil
}

// criterionHover is the markdown for a criterion.
func criterionHover(c *charterfile.Charter, cr *charterfile.Criterion, view *status.Charter) string {
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
	} else if cr.Status == "pass" {
		b.WriteString("_No note: completion needs one saying what was run and what it showed._\n\n")
	}
	switch {
	case cr.StatusLine == nil && c.Generation == charterfile.FI14:
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
	if cr.Status != "pass" {
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
	if view != nil {
		for _, vc := range view.Criteria {
			if vc.ID != cr.ID {
				continue
			}
			if vc.Stale {
				b.WriteString("**⚠ Stale:** the journal records a source change after this pass; check it again.\n\n")
			}
			if vc.FailCount > 0 {
				fmt.Fprintf(&b, "The journal records it failing %d time%s.\n\n", vc.FailCount, plural(vc.FailCount))
			}
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// criteriaList names criteria with their status: "C1 (pass), C2 (pending)".
func criteriaList(c *charterfile.Charter, ids []string) string {
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

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// phaseHover is the markdown for a phase item.
func phaseHover(c *charterfile.Charter, ph *charterfile.Phase, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Phase %d of %d: %s** — `%s`\n\n", n, len(c.Phases), feature.Escape(ph.Title), ph.Status)
	switch {
	case ph.Explicit:
		fmt.Fprintf(&b, "Set by its ` — %s` suffix.\n", ph.Status)
	case ph.Status == "current":
		b.WriteString("Inferred: no phase is marked ` — current`, so the first phase that is not done is current.\n")
	default:
		b.WriteString("Inferred: a phase without a suffix is upcoming.\n")
	}
	b.WriteString("\nA phase's status is the end of its line: a space, an em dash (—) and `upcoming`, `current` or `done`.\n")
	return b.String()
}

// sectionHoverCharters is the markdown for a section heading.
func sectionHoverCharters(c *charterfile.Charter, name charterfile.SectionName, view *status.Charter) string {
	var b strings.Builder
	switch name {
	case charterfile.SectionObjective:
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
		if c.Objective.Text == "" && view != nil && view.Objective != "" {
			fmt.Fprintf(&b, "\n`state.json`: %s\n", feature.Escape(oneLineNote(view.Objective)))
		}
	case charterfile.SectionCriteria:
		fmt.Fprintf(&b, "**Criteria** — %s", c.CriteriaSummary())
		if view != nil && len(view.StatusCounts) > 0 {
			var parts []string
			for _, tok := range charterfile.StatusTokens(c.Generation, "Status") {
				if n := view.StatusCounts[tok]; n > 0 && tok != "pass" {
					parts = append(parts, fmt.Sprintf("%d %s", n, tok))
				}
			}
			if len(parts) > 0 {
				b.WriteString(" · " + strings.Join(parts, " · "))
			}
			if len(view.ReadyNext) > 0 {
				fmt.Fprintf(&b, "\n\nReady next: %s", strings.Join(view.ReadyNext, ", "))
			}
		}
		b.WriteString("\n")
	case charterfile.SectionPhases:
		fmt.Fprintf(&b, "**Phases** — %s\n", c.PhasesSummary())
		if ph, n := c.CurrentPhase(); ph != nil {
			fmt.Fprintf(&b, "\nCurrent: %d. %s\n", n, feature.Escape(ph.Title))
		}
	case charterfile.SectionReferences, charterfile.SectionScope:
		sec := c.References
		if name == charterfile.SectionScope {
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
