package pi

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

// closestKey skips the known keys whose length alone puts them out of
// reach; it suggests exactly what comparing with every key suggests.
func TestClosestKeyMatchesComparingEveryKey(t *testing.T) {
	every := func(key string) string {
		best, bestD := "", 3
		for _, k := range KnownKeys {
			limit := 2
			if len(k) <= 5 {
				limit = 1
			}
			if d := textdist.Distance(key, k); d <= limit && d < bestD {
				best, bestD = k, d
			}
			if nk := strings.ReplaceAll(key, " ", ""); nk != key {
				if d := textdist.Distance(nk, k); d <= limit && d < bestD {
					best, bestD = k, d
				}
			}
		}
		return best
	}
	pieces := []string{"a", "e", "i", "c", "o", "m", "n", "d", " ", "é", "verifier", "comand", "kind", "fresh", "because", "x", "since", "task"}
	seed := uint32(5)
	for n := range 30000 {
		var b strings.Builder
		for range 1 + n%5 {
			seed = seed*1664525 + 1013904223
			b.WriteString(pieces[int(seed>>16)%len(pieces)])
		}
		key := b.String()
		if got, want := closestKey(key), every(key); got != want {
			t.Fatalf("closestKey(%q) = %q, want %q", key, got, want)
		}
	}
}
