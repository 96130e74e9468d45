package pi

import (
	"context"
	"fmt"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

var sizes = []struct {
	name             string
	milestones, vals int
}{
	{"100VALs", gen.RealisticMilestones, gen.RealisticVALs},
	{"5000VALs", gen.LargeMilestones, gen.LargeVALs},
}

// BenchmarkParseCriteria parses a whole register from scratch.
func BenchmarkParseCriteria(b *testing.B) {
	for _, sz := range sizes {
		src := gen.Criteria(sz.milestones, sz.vals)
		b.Run(sz.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if c := ParseCriteria(src); len(c.Criteria) != sz.milestones*sz.vals {
					b.Fatalf("%d criteria", len(c.Criteria))
				}
			}
		})
	}
}

// BenchmarkParseCriteriaEdit re-parses after a one-character edit in the
// middle of the register (in the first VAL of a milestone, or in its last:
// -lastVAL), as the server does per keystroke: comparing the two versions
// to find the edit, and (told) being told what it kept, as an open
// document's parse is (ParseEdited).
func BenchmarkParseCriteriaEdit(b *testing.B) {
	for _, sz := range sizes {
		src := gen.Criteria(sz.milestones, sz.vals)
		for _, tc := range []struct {
			told bool
			val  int // of the milestone
		}{{false, 0}, {true, 0}, {true, sz.vals - 1}} {
			told := tc.told
			edits, at := oneCharEdits(src, tc.val)
			name := sz.name
			if told {
				name += "-told"
			}
			if tc.val > 0 {
				name += "-lastVAL"
			}
			b.Run(name, func(b *testing.B) {
				var p CriteriaParser
				p.Parse(src)
				// Typing the character and deleting it keep the same.
				kept := source.Kept{Prefix: at, Suffix: len(src) - at}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					var c *Criteria
					if told {
						c, _ = p.ParseEdited(context.Background(), edits[i%2], edits[(i+1)%2], kept)
					} else {
						c = p.Parse(edits[i%2])
					}
					if len(c.Criteria) != sz.milestones*sz.vals {
						b.Fatalf("%d criteria", len(c.Criteria))
					}
					i++
				}
			})
		}
	}
}

// oneCharEdits returns src with one character typed at offset at, in the
// middle VAL's verifier line, and src as it was: alternating them is
// typing and undoing.
func oneCharEdits(src []byte, val int) (edits [2][]byte, at int) {
	c := ParseCriteria(src)
	mid := c.Criteria[len(c.Criteria)/2+val]
	f := mid.Field(KeyVerifier)
	if f == nil {
		panic(fmt.Sprintf("%s has no verifier", mid.ID))
	}
	at = f.ValueSpan.End
	typed := append(append(append([]byte{}, src[:at]...), 'x'), src[at:]...)
	return [2][]byte{typed, src}, at
}
