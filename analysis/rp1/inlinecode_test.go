package rp1

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// blankInlineCode pairs each run of backticks with the next run of the
// same length, as a plain reading of CommonMark's rule does one opener at
// a time.
func TestBlankInlineCodeAsTheRuleReads(t *testing.T) {
	plain := func(line string) string {
		b := []byte(line)
		for i := 0; i < len(b); {
			if b[i] != '`' {
				i++
				continue
			}
			n := 0
			for i+n < len(b) && b[i+n] == '`' {
				n++
			}
			closed := -1
			for j := i + n; j < len(b); {
				if b[j] != '`' {
					j++
					continue
				}
				m := 0
				for j+m < len(b) && b[j+m] == '`' {
					m++
				}
				if m == n {
					closed = j + m
					break
				}
				j += m
			}
			if closed < 0 {
				i += n
				continue
			}
			for k := i; k < closed; k++ {
				b[k] = ' '
			}
			i = closed
		}
		return string(b)
	}
	r := rand.New(rand.NewPCG(1, 2))
	cases := []string{"", "a", "`", "`a`", "``a`b``", "a `TBD` b `c", "```x``y```z``", strings.Repeat("`a", 1000) + "``"}
	for range 2000 {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString([]string{"`", "``", "a", " ", "TBD", "```"}[r.IntN(6)])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if got, want := blankInlineCode(c), plain(c); got != want {
			t.Fatalf("blankInlineCode(%q) = %q, want %q", c, got, want)
		}
	}
}
