package pi

import (
	"fmt"
	"sort"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/outline"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// CriteriaOutline outlines a register (criteria.md as parsed, or a legacy
// ## Criteria section): its milestones (VALs passing in the detail)
// holding their VALs (latest outcome in the detail), then ungrouped or
// flat VALs. view (nil outside a charter directory) supplies the outcomes.
func CriteriaOutline(cr *Criteria, view *View) []*outline.Symbol {
	if cr == nil {
		return nil
	}
	if view == nil {
		view = &View{Latest: map[string]Result{}}
	}
	val := func(c *Criterion) *outline.Symbol {
		detail := "no evidence"
		if o, ok := view.Latest[c.ID]; ok && o.Outcome != "" {
			detail = string(o.Outcome)
			if o.TS != "" {
				detail += " · " + o.TS
			}
		}
		name := c.ID
		if c.Title != "" && c.Title != c.ID {
			name += " " + c.Title
		}
		return &outline.Symbol{Name: name, Detail: detail, Kind: outline.Criterion,
			Span: source.Span{Start: c.HeadingSpan().Start, End: c.BodySpan().End}, Heading: c.HeadingSpan()}
	}
	var out []*outline.Symbol
	grouped := map[*Criterion]bool{}
	for _, m := range cr.Milestones {
		pass, total := view.Progress(m)
		ms := &outline.Symbol{Name: m.Title, Detail: fmt.Sprintf("%d/%d pass", pass, total), Kind: outline.Section,
			Span: m.HeadingSpan, Heading: m.HeadingSpan}
		for _, c := range m.Criteria {
			grouped[c] = true
			ms.Children = append(ms.Children, val(c))
		}
		out = append(out, ms)
	}
	for _, c := range cr.Criteria {
		if !grouped[c] {
			out = append(out, val(c))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// ReportOutline outlines REPORT.md (src): its title holding its Objective,
// Outcome and Notes.
func ReportOutline(src []byte) []*outline.Symbol {
	r := ParseReport(src)
	var out []*outline.Symbol
	for _, name := range ReportSectionNames {
		sec := r.Section(name)
		if sec == nil {
			continue
		}
		detail := ""
		if !sec.HasContent {
			detail = "empty"
		}
		out = append(out, &outline.Symbol{Name: name, Detail: detail, Kind: outline.Section,
			Span: source.Span{Start: sec.HeadingSpan.Start, End: sec.BodySpan.End}, Heading: sec.HeadingSpan})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	if !r.HasTitle {
		return out
	}
	title := &outline.Symbol{Name: r.Title, Detail: "report", Kind: outline.Title,
		Span: source.Span{Start: r.TitleSpan.Start, End: len(src)}, Heading: r.TitleSpan}
	var outside []*outline.Symbol
	for _, c := range out {
		if c.Span.Start < title.Span.Start {
			outside = append(outside, c)
		} else {
			title.Children = append(title.Children, c)
		}
	}
	return append(outside, title)
}

// CharterOutline outlines a pi charter.md (src): its sections in file
// order, a legacy ## Criteria section holding its VALs.
func CharterOutline(src []byte, view *View) []*outline.Symbol {
	ch := ParseCharter(src)
	secs := make([]*Section, 0, len(ch.Sections))
	for _, sec := range ch.Sections {
		secs = append(secs, sec)
	}
	sort.Slice(secs, func(i, j int) bool { return secs[i].HeadingSpan.Start < secs[j].HeadingSpan.Start })
	var out []*outline.Symbol
	for _, sec := range secs {
		sym := &outline.Symbol{Name: sec.Heading, Kind: outline.Section,
			Span: source.Span{Start: sec.HeadingSpan.Start, End: sec.BodySpan.End}, Heading: sec.HeadingSpan}
		if sec == ch.Sections["criteria"] && ch.Criteria != nil {
			sym.Children = CriteriaOutline(ch.Criteria, view)
		}
		out = append(out, sym)
	}
	return out
}

// Symbols are the VALs of the charter as workspace symbols: each named by
// its id and title, held by the charter (and its milestone).
func Symbols(v *View) []feature.Symbol { return DirSymbols(v.Dir) }

// DirSymbols are Symbols from the charter directory alone: they need its
// register, not its evidence (the workspace's symbols are read so, for
// every charter of a monorepo).
func DirSymbols(d *Dir) []feature.Symbol {
	var out []feature.Symbol
	for _, c := range d.Criteria.Criteria {
		container := d.ID
		if c.MilestoneID != "" {
			container = d.ID + " › " + c.MilestoneID
		}
		name := c.ID
		if c.Title != "" && c.Title != c.ID {
			name += " — " + c.Title
		}
		out = append(out, feature.Symbol{Name: name, Container: container, Location: feature.Location{Path: d.CriteriaPath, Span: c.HeadingSpan()}})
	}
	return out
}
