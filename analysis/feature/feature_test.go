package feature

import (
	"testing"
	"time"
)

// A query matches a name (lower-cased id and title) by substring, or by
// the id's runes in order.
func TestMatches(t *testing.T) {
	const name = "val-sess-001 — login works"
	for query, want := range map[string]bool{
		"": true, "login": true,
		"vs1":   true,  // the id's runes in order
		"v s 1": true,  // spaces ignored
		"lw":    false, // fuzzy over the id only
		"val-x": false, // not in order
	} {
		if got := Matches(name, query); got != want {
			t.Errorf("Matches(%q, %q) = %v, want %v", name, query, got, want)
		}
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		30 * time.Second: "just now", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago",
		50 * time.Hour: "2d ago", -2 * time.Hour: "in 2h",
	} {
		if got := Ago(now, now.Add(-d)); got != want {
			t.Errorf("Ago(%v before) = %q, want %q", d, got, want)
		}
	}
}

// Text from a charter never turns into markup; our prose keeps its code
// spans.
func TestMarkdownEscaping(t *testing.T) {
	if got := Escape("[x](javascript:y) *b*"); got != `\[x\]\(javascript:y\) \*b\*` {
		t.Errorf("Escape: %q", got)
	}
	if got := Prose("a `*kept*` and *escaped*"); got != "a `*kept*` and \\*escaped\\*" {
		t.Errorf("Prose: %q", got)
	}
	if got := Prose("an `unpaired *span"); got != "an \\`unpaired \\*span" {
		t.Errorf("Prose with an unpaired backtick: %q", got)
	}
	if got := Link("work/[x].json", "/p/work/[x].json"); got != `[work/\[x\].json](file:///p/work/%5Bx%5D.json)` {
		t.Errorf("Link: %q", got)
	}
}
