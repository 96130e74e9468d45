package charterfile

import (
	"slices"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// DependsRef is one id written on a Depends: line of a criterion block.
type DependsRef struct {
	ID   string
	Span source.Span // the id in the file
	// In is the block whose line it is (a duplicate id's ignored block
	// included); Won says the line is the block's winning Depends line
	// (the last), the one upstream reads.
	In  *Criterion
	Won bool
}

// DependsRefs lists every id on every Depends: line of every criterion
// block, in file order: the lines upstream reads and the ones a later
// line overrides, which a rename must keep consistent too. Only the
// file-interface grammars have Depends lines.
func (c *Charter) DependsRefs() []DependsRef {
	if !c.Generation.FileInterface() {
		return nil
	}
	t := c.text
	// The blocks, kept and ignored, in file order: they do not overlap
	// (each ends at the next heading), so the block of each line is found
	// by walking them alongside the lines (asking blockOf for each line
	// asked every criterion: 5 s for a charter of 75,000).
	blocks := slices.Concat(c.Criteria, c.Dropped)
	slices.SortStableFunc(blocks, func(a, b *Criterion) int { return a.head - b.head })
	var out []DependsRef
	k := 0
	for i := 0; i < t.n(); i++ {
		l := strings.TrimSuffix(t.line(i), "\r")
		if !labelPrefix(l, "Depends") {
			continue
		}
		for k < len(blocks) && blocks[k].end <= i {
			k++
		}
		if k == len(blocks) || blocks[k].head >= i {
			continue
		}
		cr := blocks[k]
		at := skipSpace(l, len("Depends")+1)
		toks, offs := splitDepends(l[at:])
		won := cr.DependsLine != nil && cr.DependsLine.line == i
		for k, tok := range toks {
			out = append(out, DependsRef{ID: tok, Span: t.at(i, at+offs[k], at+offs[k]+len(tok)), In: cr, Won: won})
		}
	}
	return out
}

// ValidCriterionID reports whether id is a criterion id upstream reads: a
// "### <id>. title" heading is a criterion (CRITERION_HEADING).
func ValidCriterionID(id string) bool {
	_, end, _, _, ok := criterionHeading("### " + id + ". t")
	return ok && end == len("### ")+len(id)
}
