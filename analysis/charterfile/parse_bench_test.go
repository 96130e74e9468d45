package charterfile

import (
	"fmt"
	"strings"
	"testing"
)

// bigCharter is an FI15 charter with n criteria in the shape of the corpus.
func bigCharter(n int) []byte {
	var b strings.Builder
	b.WriteString("# Charter: big\n\n## Objective\n\nShip the big thing.\n\n## References\n\n- docs/spec.md\n\n## Criteria\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "### C%d. Criterion number %d holds\n\nThe behaviour, with a boundary case and a `code` span.\n\nDepends: C%d\nStatus: pass — ran the suite: %d/%d (2026-07-02)\n\n", i, i, max(1, i-1), i, i)
	}
	return []byte(b.String())
}

func BenchmarkCheckFI15(b *testing.B) {
	for _, n := range []int{20, 1000} {
		src := bigCharter(n)
		b.Run(fmt.Sprintf("criteria=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				CheckCharter(ParseFI15(src))
			}
		})
	}
}

var pathN = 100_000

// BenchmarkPathological: lines built to make a backtracking matcher
// quadratic (long whitespace before a CR, long runs of dashes) stay linear.
func BenchmarkPathological(b *testing.B) {
	long := strings.Repeat(" ", pathN)
	src := []byte("# Objective\nx\n## Phases\n1. " + strings.Repeat("-", pathN) + " done\n##" + long + "a\rb\n### C1." + long + "\r\n")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		for _, g := range []Generation{FI15, PH, OBJ} {
			CheckCharter(Parse(g, src))
		}
	}
}

// BenchmarkEditorFeatures: what the editor asks of a charter on a
// keystroke or a hover, after the parse: the outline (symbols, folding),
// completion and a hover's lookups at the last criterion.
func BenchmarkEditorFeatures(b *testing.B) {
	for _, n := range []int{20, 1000} {
		src := bigCharter(n)
		c := ParseFI15(src)
		last := c.Criteria[len(c.Criteria)-1]
		depends := last.DependsSpans[0].Start
		b.Run(fmt.Sprintf("outline/criteria=%d", n), func(b *testing.B) {
			for b.Loop() {
				Outline(c)
			}
		})
		b.Run(fmt.Sprintf("complete/criteria=%d", n), func(b *testing.B) {
			for b.Loop() {
				c.CompleteAt(depends)
			}
		})
		b.Run(fmt.Sprintf("hover/criteria=%d", n), func(b *testing.B) {
			for b.Loop() {
				cr, _ := c.CriterionAt(last.HeadingSpan.Start)
				c.Dependents(cr.ID)
				c.Waiting(cr)
				c.DependsAt(depends)
			}
		})
	}
}

// BenchmarkDecide: deciding the generation (Decide) beside parsing in it
// (Parse), and both as LoadDir does them (Read, one text preparation), for
// a 1,000-criterion charter and the pathological lines.
func BenchmarkDecide(b *testing.B) {
	long := strings.Repeat(" ", pathN)
	for name, src := range map[string][]byte{
		"criteria=1000": bigCharter(1000),
		"pathological":  []byte("# Objective\nx\n## Phases\n1. " + strings.Repeat("-", pathN) + " done\n##" + long + "a\rb\n### C1." + long + "\r\n"),
	} {
		b.Run(name+"/decide", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Decide(Evidence{Text: src})
			}
		})
		b.Run(name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			g := Decide(Evidence{Text: src}).Generation
			for b.Loop() {
				Parse(g, src)
			}
		})
		b.Run(name+"/read", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Read(Evidence{Text: src})
			}
		})
	}
}
