package charterfile

import (
	"fmt"
	"strings"
	"testing"
)

// DependsRefs finds each Depends line's block by walking the blocks
// alongside the lines: it asked every criterion for every line (blockOf),
// which made references to a criterion of a 4 MB charter of 75,000
// criteria take 4.9 s. The blocks it finds are blockOf's, kept criteria
// and ignored duplicates alike.
func TestDependsRefsFindTheBlocksBlockOfFinds(t *testing.T) {
	seed := uint32(3)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>16) % n }
	lines := []string{"### C%d. Title", "### C1. Duplicate", "Depends: C%d, C2", "depends: x", "Status: pass", "## Notes", "## Criteria",
		"text", "Depends: C%d\r", "```", "#### deeper", "Evidence: pass", ""}
	for n := range 300 {
		var b strings.Builder
		b.WriteString("# Charter: x\n\n## Objective\n\nDo.\n\n")
		for range n % 40 {
			line := lines[rnd(len(lines))]
			if strings.Contains(line, "%d") {
				line = fmt.Sprintf(line, 1+rnd(5))
			}
			b.WriteString(line + "\n")
		}
		for _, g := range []Generation{FI14, FI15} {
			c := Parse(g, []byte(b.String()))
			var want []DependsRef
			for i := 0; i < c.text.n(); i++ {
				l := strings.TrimSuffix(c.text.line(i), "\r")
				if !labelPrefix(l, "Depends") {
					continue
				}
				cr := c.blockOf(i)
				if cr == nil {
					continue
				}
				at := skipSpace(l, len("Depends")+1)
				toks, offs := splitDepends(l[at:])
				for k, tok := range toks {
					want = append(want, DependsRef{ID: tok, Span: c.text.at(i, at+offs[k], at+offs[k]+len(tok)), In: cr, Won: cr.DependsLine != nil && cr.DependsLine.line == i})
				}
			}
			got := c.DependsRefs()
			if len(got) != len(want) {
				t.Fatalf("%s:\n%s\n%d refs, want %d", g, b.String(), len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s:\n%s\nref %d = %+v, want %+v", g, b.String(), i, got[i], want[i])
				}
			}
		}
	}
}

// References to a criterion of a charter of many criteria cost in
// proportion: DependsRefs walks each line once.
func BenchmarkDependsRefs(b *testing.B) {
	var s strings.Builder
	s.WriteString("# Charter: Big\n\n## Objective\n\nDo.\n\n## Criteria\n")
	for i := 1; s.Len() < 4<<20; i++ {
		fmt.Fprintf(&s, "\n### C%d. Criterion\nDepends: C%d, C%d\nStatus: pending\n", i, i+1, i/2+1)
	}
	c := Parse(FI15, []byte(s.String()))
	for b.Loop() {
		c.DependsRefs()
	}
}
