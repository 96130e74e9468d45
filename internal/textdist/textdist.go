// Package textdist measures how far apart two short words are, for the
// "did you mean" suggestions of checks, quick fixes and the CLI.
package textdist

// maxRunes bounds the words compared: suggestions are for keys, kinds,
// tokens and flags, and a long text is never a typo of one.
const maxRunes = 64

// Distance is the optimal-string-alignment distance between a and b, in
// runes: insertions, deletions, substitutions and swaps of two adjacent
// runes each cost 1 ("commnad" is 1 from "command"). Words longer than 64
// runes are infinitely far apart.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > maxRunes || len(rb) > maxRunes {
		return 1 << 30
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
