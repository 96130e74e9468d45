package pi

import (
	"context"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// TestCriteriaParserMatchesFreshParse types, deletes and pastes at random
// places (headings included, so blocks split, merge and change kind; large
// parts cut and copied, so blocks go and repeat) and checks that the
// reusing parser gives exactly the fresh parse.
func TestCriteriaParserMatchesFreshParse(t *testing.T) {
	fixture, err := os.ReadFile("../../testdata/fixtures/pi-project/.pi/charters/auth-rework/criteria.md")
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string][]byte{
		"fixture":   fixture,
		"generated": gen.Criteria(6, 4),
		"larger":    gen.Criteria(30, 5),
		"empty":     nil,
	}
	// Fragments that change structure: headings of every level, VAL ids,
	// fields, line breaks of both kinds, non-ASCII.
	pieces := []string{"x", "\n", "\r\n", "#", "## ", "### ", "# H1\n", "## m9 Milestone\n", "### VAL-NEW-001 T\n",
		"VAL-", "Verifier: ", "command", "Command: go test\n", "- Verifier: manual\n", "**Kind:** qa\n", "é", "😀", "  ", "\t", "## Criteria\n"}
	for name, start := range starts {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(start))))
			// p compares each version with the one before; e is told
			// what the edit kept (ParseEdited): exactly, less than that,
			// or with the text before as a copy (then it compares).
			var p, e CriteriaParser
			src := append([]byte{}, start...)
			e.Parse(src)
			for step := 0; step < 400; step++ {
				at := 0
				if len(src) > 0 {
					at = rng.IntN(len(src) + 1)
				}
				before, end := src, at
				switch rng.IntN(8) {
				case 0, 1: // delete a few bytes
					end = min(len(src), at+rng.IntN(8))
					src = append(src[:at:at], src[end:]...)
				case 2: // cut a large part (blocks go, or merge)
					end = min(len(src), at+rng.IntN(3000))
					src = append(src[:at:at], src[end:]...)
				case 3: // paste a copy of another part (blocks repeat)
					from := rng.IntN(len(src) + 1)
					piece := src[from:min(len(src), from+rng.IntN(2000))]
					src = append(src[:at:at], append(append([]byte{}, piece...), src[at:]...)...)
				default: // insert a piece
					ins := pieces[rng.IntN(len(pieces))]
					src = append(src[:at:at], append([]byte(ins), src[at:]...)...)
				}
				kept := source.Kept{Prefix: at, Suffix: len(before) - end}
				switch rng.IntN(4) {
				case 0:
					kept.Prefix, kept.Suffix = rng.IntN(kept.Prefix+1), rng.IntN(kept.Suffix+1)
				case 1:
					before = slices.Clone(before)
				}
				told, err := e.ParseEdited(context.Background(), src, before, kept)
				if err != nil {
					t.Fatal(err)
				}
				got, want := p.Parse(src), ParseCriteria(src)
				if !reflect.DeepEqual(told, want) {
					t.Fatalf("step %d: a parse told the edit differs from a fresh parse of:\n%s", step, src)
				}
				// The index by id, which a version whose ids are the
				// last's takes over (shareIndex): the same first
				// criterion for every id, and none for an id not there
				// (asked first: the index is then in its final state in
				// both, for the comparison below).
				for _, c := range append(want.Criteria, &Criterion{parsedCriterion: &parsedCriterion{ID: "VAL-NONE-001"}}) {
					if g, w := slices.Index(got.Criteria, got.Lookup(c.ID)), slices.Index(want.Criteria, want.Lookup(c.ID)); g != w {
						t.Fatalf("step %d: Lookup(%s) is criterion %d, a fresh parse's %d", step, c.ID, g, w)
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d: incremental parse differs from a fresh parse of:\n%s", step, src)
				}
			}
		})
	}
}
