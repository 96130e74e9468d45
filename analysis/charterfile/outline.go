package charterfile

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/outline"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Outline is the charter as its generation's parser reads it: the sections
// it claims (with the spans upstream gives them: an Objective holds the
// subheadings upstream keeps in it), the criteria under ## Criteria with
// their status, the phases under ## Phases with theirs, and the other
// headings marked as what upstream makes of them (notes, ignored text).
// Headings inside fenced code count only where upstream reads them.
func Outline(c *Charter) []*outline.Symbol {
	t := c.text
	var syms []*outline.Symbol
	claimed := map[int]bool{} // heading lines that start a symbol already
	// sectionEnd[i] is the end of the claimed section holding line i.
	type claim struct{ head, end int }
	var sections []claim

	addSection := func(s Section, detail string) {
		if !s.Found {
			return
		}
		syms = append(syms, &outline.Symbol{Name: t.lineText(s.head), Detail: detail, Kind: outline.Section,
			Span: t.linesSpan(s.head, s.end), Heading: t.lineContentSpan(s.head)})
		claimed[s.head] = true
		sections = append(sections, claim{s.head, s.end})
	}
	objective := ""
	if c.Objective.Found && c.Objective.Text == "" {
		objective = "empty"
	}
	addSection(c.Objective, objective)
	addSection(c.References, emptyDetail(c.References))
	addSection(c.Scope, emptyDetail(c.Scope))
	if c.Generation == PH {
		addSection(c.PhasesSection, c.PhasesSummary())
	}
	if c.Generation.FileInterface() && c.CriteriaHeading != nil {
		if i, ok := t.lineAt(*c.CriteriaHeading); ok {
			end := t.n()
			for j := i + 1; j < t.n(); j++ {
				if _, _, ok := level2(t.line(j)); ok {
					end = j
					break
				}
			}
			addSection(Section{Found: true, head: i, end: end}, c.CriteriaSummary())
		}
	}
	for _, cr := range c.Criteria {
		syms = append(syms, &outline.Symbol{Name: cr.ID + ". " + cr.Title, Detail: cr.Detail(c.Generation), Kind: outline.Criterion,
			Span: cr.BlockSpan, Heading: t.lineContentSpan(cr.head)})
		claimed[cr.head] = true
	}
	for _, cr := range c.Dropped {
		syms = append(syms, &outline.Symbol{Name: cr.ID + ". " + cr.Title, Detail: "duplicate id: ignored", Kind: outline.Criterion,
			Span: cr.BlockSpan, Heading: t.lineContentSpan(cr.head)})
		claimed[cr.head] = true
	}
	for _, ph := range c.Phases {
		span := ph.ItemSpan
		if ph.BodySpan.End > span.End {
			span.End = ph.BodySpan.End
		}
		syms = append(syms, &outline.Symbol{Name: phaseNumber(ph) + ". " + ph.Title, Detail: ph.Detail(), Kind: outline.Phase,
			Span: span, Heading: ph.ItemSpan})
	}

	// Every other heading outside fenced code, up to level 3.
	first := true
	for i := 0; i < t.n(); i++ {
		lv, _, _, ok := heading(t.line(i))
		if !ok {
			continue
		}
		isFirst := first
		first = false
		if claimed[i] || lv > 3 || t.inFence(i) {
			continue
		}
		end := t.n()
		for j := i + 1; j < t.n(); j++ {
			if l, _, _, ok := heading(t.line(j)); ok && l <= lv && !t.inFence(j) {
				end = j
				break
			}
		}
		in := false
		for _, s := range sections {
			if i > s.head && i < s.end {
				in, end = true, min(end, s.end)
			}
		}
		kind := outline.Heading
		if lv == 1 && isFirst && !in {
			kind = outline.Title
		}
		syms = append(syms, &outline.Symbol{Name: t.lineText(i), Detail: c.headingDetail(i, in, kind), Kind: kind,
			Span: t.linesSpan(i, end), Heading: t.lineContentSpan(i)})
	}
	return outline.Nest(syms)
}

// headingDetail says what upstream makes of a heading it does not claim.
func (c *Charter) headingDetail(i int, inSection bool, kind outline.Kind) string {
	switch {
	case kind == outline.Title:
		return ""
	case inSection && c.Objective.Found && i > c.Objective.head && i < c.Objective.end && !c.Generation.FileInterface():
		return "part of the Objective"
	case inSection:
		return ""
	case c.Generation == OBJ:
		return "notes"
	}
	return "not read by pi-charter"
}

func emptyDetail(s Section) string {
	if s.Found && s.Text == "" {
		return "empty"
	}
	return ""
}

// lineText is the text of a heading line: its title, without the #s.
func (t *text) lineText(i int) string {
	l := strings.TrimSuffix(t.line(i), "\r")
	if _, s, e, ok := heading(l); ok {
		return l[s:e]
	}
	return strings.TrimSpace(l)
}

// lineAt finds the stripped line whose file span starts where sp does.
func (t *text) lineAt(sp source.Span) (int, bool) {
	for i := 0; i < t.n(); i++ {
		if t.lineSpan(i).Start == sp.Start {
			return i, true
		}
	}
	return 0, false
}

// Detail is a criterion's state in a few words: its status, where upstream
// read it when that is not a Status line, and what it depends on.
func (cr *Criterion) Detail(g Generation) string {
	d := string(cr.Status)
	switch {
	case cr.StatusLine == nil && g == FI14:
		d += " (no Evidence line)"
	case cr.StatusLine == nil:
		d += " (no Status line)"
	case cr.Legacy:
		d += " (legacy Evidence line)"
	}
	if len(cr.Depends) > 0 {
		d += " · after " + strings.Join(cr.Depends, ", ")
	}
	return d
}

// Detail is a phase's state: done, current, upcoming, with "(inferred)"
// when no suffix set it.
func (ph *Phase) Detail() string {
	if ph.Explicit {
		return string(ph.Status)
	}
	return string(ph.Status) + " (inferred)"
}

// Progress counts the criteria that pass, of all upstream keeps.
func (c *Charter) Progress() (pass, total int) {
	for _, cr := range c.Criteria {
		if cr.Status == StatusPass {
			pass++
		}
	}
	return pass, len(c.Criteria)
}

// CriteriaSummary is the criteria's progress in a few words: "3/5 pass",
// or "no criteria (open-ended)".
func (c *Charter) CriteriaSummary() string {
	pass, total := c.Progress()
	if total == 0 {
		return "no criteria (open-ended)"
	}
	return fmt.Sprintf("%d/%d pass", pass, total)
}

// CurrentPhase is the first current phase and its position (1-based)
// among the phases; nil when none is current.
func (c *Charter) CurrentPhase() (*Phase, int) {
	for i, ph := range c.Phases {
		if ph.Status == PhaseCurrent {
			return ph, i + 1
		}
	}
	return nil, 0
}

// PhasesSummary is the phases' progress in a few words: "phase 2 of 4"
// (the first current one), "4/4 done", or "no phases yet".
func (c *Charter) PhasesSummary() string {
	if len(c.Phases) == 0 {
		return "no phases yet"
	}
	if _, n := c.CurrentPhase(); n > 0 {
		return fmt.Sprintf("phase %d of %d", n, len(c.Phases))
	}
	done := 0
	for _, ph := range c.Phases {
		if ph.Status == PhaseDone {
			done++
		}
	}
	return fmt.Sprintf("%d/%d done", done, len(c.Phases))
}
