package rp1

import (
	"strings"
	"testing"
)

// regionKey in one pass keys every heading as reading its words with
// strings.Fields did (which cost five allocations a heading: 23 MB for a
// charter of 200,000 headings).
func TestRegionKeyMatchesReadingByFields(t *testing.T) {
	byFields := func(text string) string {
		t := strings.ToLower(strings.TrimSpace(text))
		t = regionKeyReplacer.Replace(t)
		if i := strings.LastIndex(t, "("); i > 0 && strings.HasSuffix(strings.TrimSpace(t), ")") {
			t = t[:i]
		}
		var b strings.Builder
		for _, r := range t {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '\'', r > 0x7f:
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
	pieces := []string{"Will", " ", "do", "1", "2.", "won’t", "&", "(v1)", "(", ")", "\u00a0", "\u2003", "é", "\xff", "\xe2\x80",
		"Out of Scope", "-", "'", "‘", "Ⅻ", "\t", "１", "vision", ":"}
	seed := uint32(7)
	for n := range 50000 {
		var b strings.Builder
		for range 1 + n%7 {
			seed = seed*1664525 + 1013904223
			b.WriteString(pieces[int(seed>>16)%len(pieces)])
		}
		text := b.String()
		if got, want := regionKey(text), byFields(text); got != want {
			t.Fatalf("regionKey(%q) = %q, want %q", text, got, want)
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
