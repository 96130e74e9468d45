package source

import (
	"strings"
	"testing"
)

func largeText() []byte {
	return []byte(strings.Repeat("### VAL-PERF-001 — Tokens are refreshed before they expire ✓\nVerifier: command\nCommand: go test ./...\n\n", 16_000))
}

func BenchmarkNewIndex(b *testing.B) {
	src := largeText()
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(src)
	}
}

// BenchmarkUpdate is one typed character in the middle of a 1.7 MB text,
// the index derived from what the edit kept.
func BenchmarkUpdate(b *testing.B) {
	src := largeText()
	ix := NewIndex(src)
	at := len(src) / 2
	typed := append(append(append([]byte{}, src[:at]...), 'x'), src[at:]...)
	b.ReportAllocs()
	for b.Loop() {
		ix.Update(typed, Kept{Prefix: at, Suffix: len(src) - at})
	}
}
