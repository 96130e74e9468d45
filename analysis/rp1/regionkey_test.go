package rp1

import (
	"strings"
	"testing"
)

// byFields is how a heading's words were read before wordKey: each
// character outside a word made a space, then strings.Fields and a join
// (five allocations a heading: 23 MB for a charter of 200,000 headings).
func byFields(t string, apostrophe bool) string {
	var b strings.Builder
	for _, r := range t {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '\'' && apostrophe, r > 0x7f:
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	words := strings.Fields(b.String())
	for len(words) > 0 && isNumber(words[0]) {
		words = words[1:]
	}
	return strings.Join(words, " ")
}

// regionKey and normalizeHeading read a heading's words in one pass
// (wordKey) as reading them with strings.Fields did, on 50,000 random
// headings: invalid bytes, non-ASCII spaces, numbers, parentheses.
func TestWordKeyMatchesReadingByFields(t *testing.T) {
	oldRegionKey := func(text string) string {
		t := strings.ToLower(strings.TrimSpace(text))
		t = regionKeyReplacer.Replace(t)
		if i := strings.LastIndex(t, "("); i > 0 && strings.HasSuffix(strings.TrimSpace(t), ")") {
			t = t[:i]
		}
		return byFields(t, true)
	}
	oldNormalizeHeading := func(text string) string {
		return byFields(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(text)), "&", " and "), false)
	}
	pieces := []string{"Will", " ", "do", "1", "2.", "won’t", "&", "(v1)", "(", ")", "\u00a0", "\u2003", "é", "\xff", "\xe2\x80",
		"Out of Scope", "-", "'", "‘", "Ⅻ", "\t", "１", "vision", ":", "Problem", "Context"}
	for text := range joins(7, 50000, 7, pieces) {
		if got, want := regionKey(text), oldRegionKey(text); got != want {
			t.Fatalf("regionKey(%q) = %q, want %q", text, got, want)
		}
		if got, want := normalizeHeading(text), oldNormalizeHeading(text); got != want {
			t.Fatalf("normalizeHeading(%q) = %q, want %q", text, got, want)
		}
	}
}

// joins yields n texts of 1 to most of pieces, chosen from seed.
func joins(seed uint32, n, most int, pieces []string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for i := range n {
			var b strings.Builder
			for range 1 + i%most {
				seed = seed*1664525 + 1013904223
				b.WriteString(pieces[int(seed>>16)%len(pieces)])
			}
			if !yield(b.String()) {
				return
			}
		}
	}
}

func TestOneSpacedJoinsFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\u00a0b", "a\r", "Will Do", "é x", "a \n b"} {
		if got, want := oneSpaced(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("oneSpaced(%q) = %q, want %q", s, got, want)
		}
	}
}
