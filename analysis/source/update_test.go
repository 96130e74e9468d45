package source

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
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

// TestFindAfterUpdateMatchesSearch: the occurrences an updated index
// derives from the version before's (Find) are those a search of the new
// text finds, under random edits that make, unmake, split and overlap
// them; kept sometimes says less than the edit kept, and the version
// before sometimes found nothing (a search then).
func TestFindAfterUpdateMatchesSearch(t *testing.T) {
	const needle = "<!--"
	pieces := []string{"<", "!", "-", "<!--", "<!--<!--", "<!-", "!--", "\n", "x", "é", "<!-- charter-lsp-disable -->\n"}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, start := range []string{"", "<!--", strings.Repeat("a <!-- b\n<!<!---\n", 50)} {
		src := []byte(start)
		ix := NewIndex(src)
		seen := 0
		for step := 0; step < 500; step++ {
			if rng.IntN(5) != 0 {
				ix.Find(needle)
			}
			at := rng.IntN(len(src) + 1)
			end := at
			if rng.IntN(2) == 0 {
				end = min(len(src), at+rng.IntN(6))
			}
			next := append(append(append([]byte{}, src[:at]...), pieces[rng.IntN(len(pieces))]...), src[end:]...)
			kept := Kept{Prefix: at, Suffix: len(src) - end}
			if rng.IntN(4) == 0 {
				kept = Kept{Prefix: rng.IntN(at + 1), Suffix: rng.IntN(len(src) - end + 1)}
			}
			ix = ix.Update(next, kept)
			src = next
			var want []int
			for i := range src {
				if bytes.HasPrefix(src[i:], []byte(needle)) {
					want = append(want, i)
				}
			}
			got := ix.Find(needle)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: %q: Find %v, a search %v", step, src, got, want)
			}
			seen += len(want)
		}
		if seen == 0 {
			t.Fatal("nothing found; the test compared nothing")
		}
	}
}
