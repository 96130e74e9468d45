package pi

import (
	"strings"
	"testing"
)

// An ASCII key normalizes in one pass as the general path does, and a
// key upstream reads costs no allocation.
func TestNormalizeASCIIKeyAgrees(t *testing.T) {
	keys := []string{"", " ", "Description", "  DESCRIPTION  ", "Fresh\tEvidence \v\fRequired", "require\r\nreview   subagent",
		"Verifier", "x", "Task Kind", "a\u00a0b", "İD", "\x00key", strings.Repeat("Ab ", 30), strings.Repeat("k", 64), strings.Repeat("k", 65)}
	for _, k := range KnownKeys {
		keys = append(keys, k, strings.ToUpper(k), " "+strings.ReplaceAll(k, " ", "\t  ")+" ")
	}
	for _, k := range keys {
		if got, want := normalizeKey([]byte(k)), normalizeAnyKey([]byte(k)); got != want {
			t.Errorf("normalizeKey(%q) = %q, want %q", k, got, want)
		}
	}
	b := []byte("  Fresh Evidence  REQUIRED ")
	if n := testing.AllocsPerRun(10, func() { normalizeKey(b) }); n != 0 {
		t.Errorf("a known key: %v allocations", n)
	}
}
