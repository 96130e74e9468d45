package lsp

import (
	"fmt"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// criteriaSymbols: milestones (VALs passing in the detail) holding their
// VALs (latest outcome in the detail), then ungrouped or flat VALs.
func criteriaSymbols(d *doc) []protocol.DocumentSymbol {
	return criteriaOutline(d.Index(), d.Criteria(), d.piView())
}

// criteriaOutline outlines a register; view (nil outside a charter
// directory) supplies the outcomes.
func criteriaOutline(ix *source.Index, cr *pi.Criteria, view *pi.View) []protocol.DocumentSymbol {
	if view == nil {
		view = &pi.View{Latest: map[string]pi.Result{}}
	}
	val := func(c *pi.Criterion) protocol.DocumentSymbol {
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
		return symbol(ix, name, detail, protocol.SymbolKindConstant,
			source.Span{Start: c.HeadingSpan.Start, End: c.BodySpan.End}, c.HeadingSpan)
	}
	var out []protocol.DocumentSymbol
	grouped := map[*pi.Criterion]bool{}
	for _, m := range cr.Milestones {
		var vals []protocol.DocumentSymbol
		for _, c := range m.Criteria {
			grouped[c] = true
			vals = append(vals, val(c))
		}
		pass, total := view.Progress(m)
		ms := symbol(ix, m.Title, fmt.Sprintf("%d/%d pass", pass, total), protocol.SymbolKindModule, m.HeadingSpan, m.HeadingSpan)
		ms.Children = vals
		widen(&ms)
		out = append(out, ms)
	}
	for _, c := range cr.Criteria {
		if !grouped[c] {
			out = append(out, val(c))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return before(out[i].Range.Start, out[j].Range.Start) })
	return out
}

// reportSymbols: REPORT.md's title and its Objective, Outcome and Notes.
func reportSymbols(d *doc) []protocol.DocumentSymbol {
	r := pi.ParseReport(d.Text)
	ix := d.Index()
	var out []protocol.DocumentSymbol
	for _, name := range pi.ReportSectionNames {
		sec := r.Section(name)
		if sec == nil {
			continue
		}
		detail := ""
		if !sec.HasContent {
			detail = "empty"
		}
		out = append(out, symbol(ix, name, detail, protocol.SymbolKindModule,
			source.Span{Start: sec.HeadingSpan.Start, End: sec.BodySpan.End}, sec.HeadingSpan))
	}
	sort.SliceStable(out, func(i, j int) bool { return before(out[i].Range.Start, out[j].Range.Start) })
	if !r.HasTitle {
		return out
	}
	title := symbol(ix, r.Title, "report", protocol.SymbolKindFile, source.Span{Start: r.TitleSpan.Start, End: len(d.Text)}, r.TitleSpan)
	var inside, outside []protocol.DocumentSymbol
	for _, c := range out {
		if before(c.Range.Start, title.Range.Start) {
			outside = append(outside, c)
		} else {
			inside = append(inside, c)
		}
	}
	title.Children = inside
	return append(outside, title)
}

// piCharterSymbols: a pi charter.md's sections in file order; a legacy
// ## Criteria section holds its VALs.
func piCharterSymbols(d *doc) []protocol.DocumentSymbol {
	ch := pi.ParseCharter(d.Text)
	ix := d.Index()
	secs := make([]*pi.Section, 0, len(ch.Sections))
	for _, sec := range ch.Sections {
		secs = append(secs, sec)
	}
	sort.Slice(secs, func(i, j int) bool { return secs[i].HeadingSpan.Start < secs[j].HeadingSpan.Start })
	var out []protocol.DocumentSymbol
	for _, sec := range secs {
		sym := symbol(ix, sec.Heading, "", protocol.SymbolKindModule,
			source.Span{Start: sec.HeadingSpan.Start, End: sec.BodySpan.End}, sec.HeadingSpan)
		if sec == ch.Sections["criteria"] && ch.Criteria != nil {
			sym.Children = criteriaOutline(ix, ch.Criteria, d.piView())
			widen(&sym)
		}
		out = append(out, sym)
	}
	return out
}
