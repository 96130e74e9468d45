package textdist

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"command", "command", 0}, {"", "abc", 3}, {"abc", "", 3},
		{"commnad", "command", 1},   // a swap of two adjacent letters
		{"comand", "command", 1},    // a letter missing
		{"commandd", "command", 1},  // one too many
		{"kommand", "command", 1},   // one wrong
		{"mnaual", "manual", 1},     // a swap
		{"évidence", "evidence", 1}, // runes, not bytes
		{"pass", "fail", 3},
		{"ca", "abc", 3}, // OSA: no edits of a swapped pair
		{strings.Repeat("a", 65), "a", 1 << 30},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}
