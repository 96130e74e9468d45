package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Whatever the passes change (inside lines, across them, adding and
// removing lines, at either end), the diff lineHistory writes turns the
// original into the final text, and leaves out the lines no pass touched.
func TestLineHistoryDiff(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch to apply the diffs with")
	}
	pieces := []string{"", "x", "\n", "a\nb", "new line\n", "\r\n"}
	rng := rand.New(rand.NewPCG(7, 11))
	dir := t.TempDir()
	for round := 0; round < 200; round++ {
		var b strings.Builder
		for i := rng.IntN(40); i > 0; i-- {
			b.WriteString([]string{"alpha\n", "beta\n", "gamma\n", "\n", "delta"}[rng.IntN(5)])
		}
		original := []byte(b.String())
		h := newLineHistory(original)
		text := original
		for pass := rng.IntN(4); pass >= 0; pass-- {
			var fixes []*diag.Fix
			for n := rng.IntN(4); n >= 0; n-- {
				start := rng.IntN(len(text) + 1)
				end := min(len(text), start+rng.IntN(8))
				fixes = append(fixes, diag.Replace("f", source.Span{Start: start, End: end}, pieces[rng.IntN(len(pieces))]))
			}
			out, applied := diag.ApplyFixes(text, fixes)
			var edits []diag.Edit
			for _, f := range applied {
				edits = append(edits, f.Edits...)
			}
			h.apply(text, out, edits)
			text = out
		}
		d, err := h.unified("a/f", "b/f", text)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if string(text) == string(original) {
			continue
		}
		os.WriteFile(filepath.Join(dir, "f"), original, 0o644)
		cmd := exec.Command("patch", "-p1", "--quiet")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(d)
		out, err := cmd.CombinedOutput()
		if got, _ := os.ReadFile(filepath.Join(dir, "f")); err != nil || string(got) != string(text) {
			t.Fatalf("round %d: the diff does not turn\n%q\ninto\n%q\n(%v %s):\n%s", round, original, text, err, out, d)
		}
		if len(h.origin) != len(lineStarts(text)) {
			t.Fatalf("round %d: %d origins for %d lines", round, len(h.origin), len(lineStarts(text)))
		}
	}
}

func TestLineHistoryKeepsUntouchedLines(t *testing.T) {
	src := []byte("one\ntwo\nthree\nfour\n")
	h := newLineHistory(src)
	out, applied := diag.ApplyFixes(src, []*diag.Fix{diag.Replace("t", source.Span{Start: 4, End: 7}, "TWO\nand a half")})
	h.apply(src, out, applied[0].Edits)
	if want := []int{0, -1, -1, 2, 3}; !equalInts(h.origin, want) {
		t.Errorf("origin %v, want %v", h.origin, want)
	}
	d, _ := h.unified("a/f", "b/f", out)
	if want := "--- a/f\n+++ b/f\n@@ -1,4 +1,5 @@\n one\n-two\n+TWO\n+and a half\n three\n four\n"; d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
