package source

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestUpdateMatchesNewIndex edits at random, with every kind of line break
// (a "\r" typed before a "\n" joins two line ends into one), and compares
// the index updated from what the edit kept with a fresh one.
func TestUpdateMatchesNewIndex(t *testing.T) {
	pieces := []string{"a", "é", "😀", "\n", "\r", "\r\n", "\n\r", "line\n", strings.Repeat("x", 300), strings.Repeat("y\n", 200)}
	rng := rand.New(rand.NewPCG(8, 8))
	for _, start := range []string{"", "one\ntwo\r\nthree\rfour", strings.Repeat("### VAL-A-001 t\r\nVerifier: manual\n\n", 100)} {
		src := []byte(start)
		ix := NewIndex(src)
		for step := 0; step < 400; step++ {
			at := rng.IntN(len(src) + 1)
			end := at
			if rng.IntN(2) == 0 {
				end = min(len(src), at+rng.IntN(5))
			}
			ins := ""
			if rng.IntN(4) != 0 {
				ins = pieces[rng.IntN(len(pieces))]
			}
			next := append(append(append([]byte{}, src[:at]...), ins...), src[end:]...)
			got, want := ix.Update(next, Kept{Prefix: at, Suffix: len(src) - end}), NewIndex(next)
			if !reflect.DeepEqual(got.lines, want.lines) {
				t.Fatalf("step %d: replacing [%d,%d) of %q by %q: lines %v, want %v", step, at, end, src, ins, got.lines, want.lines)
			}
			src, ix = next, got
		}
	}
}
