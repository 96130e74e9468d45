package source

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// benchChanges applies changes to src once per iteration.
func benchChanges(b *testing.B, src []byte, changes []Change) {
	b.ReportAllocs()
	for b.Loop() {
		ApplyChanges(src, nil, changes)
	}
}

// One didChange of 20,000 changes that leaves a 10 MB text, at the end of
// the text (each 512 bytes appended: a paste storm) and at lines spread
// over it.
func BenchmarkApplyChanges20kTo10MB(b *testing.B) {
	block := strings.Repeat("### VAL-X-001 — a line of text ✓\n", 512/32)[:512-1] + "\n"
	far := Position{Line: 1 << 30}
	b.Run("appended", func(b *testing.B) {
		changes := make([]Change, 20_000)
		for i := range changes {
			changes[i] = Change{Range: Range{Start: far, End: far}, Text: block}
		}
		benchChanges(b, nil, changes)
	})
	b.Run("spread", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 1))
		changes := make([]Change, 20_000)
		lines := 1
		for i := range changes {
			p := Position{Line: r.IntN(lines), Character: r.IntN(40)}
			changes[i] = Change{Range: Range{Start: p, End: p}, Text: block}
			lines += 16
		}
		benchChanges(b, nil, changes)
	})
	b.Run("one-line", func(b *testing.B) {
		// No line break at all: every change finds its column in one 10 MB line.
		r := rand.New(rand.NewPCG(2, 2))
		flat := strings.ReplaceAll(block, "\n", " ")
		changes := make([]Change, 20_000)
		units := 0
		for i := range changes {
			p := Position{Character: r.IntN(units + 1)}
			changes[i] = Change{Range: Range{Start: p, End: p}, Text: flat}
			units += len([]rune(flat))
		}
		benchChanges(b, nil, changes)
	})
}

// One didChange of 400,000 one-character changes: typed at the end of a
// 1 MB text, and at random places in it.
func BenchmarkApplyChanges400kOneChar(b *testing.B) {
	src := []byte(strings.Repeat("### VAL-X-001 — a line of text ✓\n", (1<<20)/34))
	lines := NewIndex(src).LineCount()
	b.Run("typed", func(b *testing.B) {
		changes := make([]Change, 400_000)
		for i := range changes {
			p := Position{Line: lines - 1, Character: i}
			changes[i] = Change{Range: Range{Start: p, End: p}, Text: "x"}
		}
		benchChanges(b, src, changes)
	})
	b.Run("random", func(b *testing.B) {
		r := rand.New(rand.NewPCG(3, 3))
		changes := make([]Change, 400_000)
		for i := range changes {
			p := Position{Line: r.IntN(lines), Character: r.IntN(30)}
			changes[i] = Change{Range: Range{Start: p, End: Position{Line: p.Line, Character: p.Character + r.IntN(2)}}, Text: "x"}
		}
		benchChanges(b, src, changes)
	})
}
