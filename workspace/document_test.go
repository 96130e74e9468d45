package workspace

import (
	"runtime"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// manyChanges is one didChange of n one-line inserts, each at the start of
// a line spread over the document as it grows (line i*7 mod lines), and the
// text they make (computed line by line, independently of Apply).
func manyChanges(lines []string, n int) ([]TextChange, string) {
	changes := make([]TextChange, 0, n)
	cur := append([]string(nil), lines...)
	for i := range n {
		at := (i * 7919) % len(cur)
		ins := "inserted line — ✓ 🚀\n"
		changes = append(changes, TextChange{Range: source.Range{
			Start: source.Position{Line: at}, End: source.Position{Line: at},
		}, Text: ins})
		cur = append(cur[:at], append([]string{strings.TrimSuffix(ins, "\n")}, cur[at:]...)...)
	}
	return changes, strings.Join(cur, "\n")
}

// One notification's changes cost work linear in the text and the changes
// (a client can send 20,000 changes over 10 MB in one didChange): what
// Apply allocates is bounded by a small constant per byte of text and per
// change, where applying change after change to a copy of the whole text
// allocates changes × text.
func TestApplyManyChangesIsLinear(t *testing.T) {
	lines := make([]string, 5000)
	for i := range lines {
		lines[i] = "### VAL-LIN-001 — a line of a large document"
	}
	text := strings.Join(lines, "\n")
	changes, want := manyChanges(lines, 2000)
	d := NewDocument("/p/charter.md", 1, []byte(text))
	inserted := 0
	for _, c := range changes {
		inserted += len(c.Text)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	next, err := d.Apply(2, changes, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if string(next.Text) != want {
		t.Fatalf("text after %d changes differs from the reference", len(changes))
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	bound := uint64(8*(len(text)+inserted) + 1024*len(changes))
	if allocated > bound {
		t.Errorf("applying %d changes to %d KB allocated %d KB, over the linear bound %d KB",
			len(changes), len(text)>>10, allocated>>10, bound>>10)
	}
}
