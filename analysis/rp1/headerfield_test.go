package rp1

import (
	"regexp"
	"testing"
)

// headerFieldRe is the regular expression headerField is written from.
var headerFieldRe = regexp.MustCompile(`^\*\*([^*\n]+?)(?:\*\*\s*:|:\*\*)[ \t]*(.*?)[ \t]*$`)

// sameAsRegexp fails t when headerField and headerFieldRe disagree on s.
func sameAsRegexp(t *testing.T, s string) {
	t.Helper()
	want := headerFieldRe.FindStringSubmatchIndex(s)
	got, ok := headerField(s)
	switch {
	case ok != (want != nil):
		t.Fatalf("headerField(%q) matched %v, the regular expression %v", s, ok, want != nil)
	case ok && (got[0] != want[2] || got[1] != want[3] || got[2] != want[4] || got[3] != want[5]):
		t.Fatalf("headerField(%q) = %v, the regular expression %v", s, got, want[2:])
	}
}

// TestHeaderField holds headerField to the regular expression: on the
// header lines charters hold, on odd ones, and on every string of up to
// seven bytes over the bytes that matter to it.
func TestHeaderField(t *testing.T) {
	for _, s := range []string{
		"**Version**: 1.0.0", "**Status:** Draft", "**Created**:2026-11-02 ", "**Key** :\tv\t",
		"**Key**\r: v", "**Key**\n: v", "**a:**b**: c", "**a*b**: c", "****: x", "**:**", "**: **x",
		"**k**", "**k**:", "**k**:   ", "**k**: a\nb", "** k **: v", "**k:**: v", "**k:** v **x**: y",
		"**Ünïcödé**: välue", "**k** \f\v: v", "", "*", "**", "***", "text **k**: v",
	} {
		sameAsRegexp(t, s)
	}
	const alphabet = "*: \tk\n"
	var buf [7]byte
	var gen func(n int)
	gen = func(n int) {
		sameAsRegexp(t, "**"+string(buf[:n]))
		if n == len(buf) {
			return
		}
		for i := range len(alphabet) {
			buf[n] = alphabet[i]
			gen(n + 1)
		}
	}
	gen(0)
}

func FuzzHeaderField(f *testing.F) {
	f.Add("**Version**: 1.0.0")
	f.Add("**Status:** Draft")
	f.Fuzz(func(t *testing.T, s string) { sameAsRegexp(t, s) })
}
