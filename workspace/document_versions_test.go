package workspace

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// A version's text, and what is derived from it, stay its own after later
// edits: a snapshot taken before a keystroke reads the bytes it was made
// with while the next versions are built and read concurrently (the
// editor's requests run on old snapshots while didChange makes new ones).
// Run with -race: a text shared and written by a later edit is a race.
func TestDocumentVersionsKeepTheirText(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Criteria\n\n## M1 — first\n\n")
	for i := range 200 {
		fmt.Fprintf(&b, "### VAL-KEEP-%03d — criterion %d\n\nVerifier: command\n\n", i, i)
	}
	path := "/p/.pi/charters/c/criteria.md"
	sess := NewSession(Options{})
	doc := NewDocument(path, 1, []byte(b.String()))
	snaps := []*Snapshot{sess.Update(Change{Documents: []*Document{doc}})}
	want := []string{b.String()}

	// Edits at the start, the middle and the end, inserting, deleting and
	// replacing; each made through the previous version's index.
	at := func(line, char int) source.Position { return source.Position{Line: line, Character: char} }
	edits := []TextChange{
		{Range: source.Range{Start: at(404, 17), End: at(404, 17)}, Text: "x"},
		{Range: source.Range{Start: at(404, 17), End: at(404, 18)}, Text: ""},
		{Range: source.Range{Start: at(0, 2), End: at(0, 10)}, Text: "Kriterien"},
		{Range: source.Range{Start: at(4, 0), End: at(8, 0)}, Text: ""},
		{Range: source.Range{Start: at(790, 0), End: at(790, 0)}, Text: "### VAL-KEEP-999 — added\n\n"},
		{Range: source.Range{Start: at(200, 4), End: at(200, 4)}, Text: "é🚀"},
	}
	// Each version but the first is written in the memory made ahead for
	// it after the version before was published (Document.PrepareEdit),
	// made or still being made, or allocated when there is none.
	defer func(n int) { spareMin = n }(spareMin)
	spareMin = 0
	for i, e := range edits {
		prev := snaps[len(snaps)-1]
		switch i % 3 {
		case 0:
			prev.File(path).PrepareEdit()
			doc.spare.Load().Wait()
		case 1:
			prev.File(path).PrepareEdit() // taken if made in time
		}
		next, err := doc.Apply(doc.Version+1, []TextChange{e}, prev.File(path).Index())
		if err != nil {
			t.Fatal(err)
		}
		doc = next
		snaps = append(snaps, sess.Update(Change{Documents: []*Document{next}}))
		// The expected text, computed on its own: a fresh index, one splice.
		old := []byte(want[len(want)-1])
		span := source.NewIndex(old).Span(e.Range)
		want = append(want, string(old[:span.Start])+e.Text+string(old[span.End:]))
		if got := string(snaps[i+1].File(path).Text); got != want[i+1] {
			t.Fatalf("version %d: text differs from the edit applied to a copy", i+2)
		}
	}

	// Each snapshot, old and new, read by several goroutines at once:
	// its text, its index (derived from the version before), its parse
	// (the parser is shared by the versions), each against a fresh one.
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(snaps))
	for round := range 4 {
		for i := range snaps {
			i := (i + round) % len(snaps) // old and new in different orders
			wg.Go(func() {
				f := snaps[i].File(path)
				if string(f.Text) != want[i] {
					errs <- fmt.Errorf("version %d: text changed after later edits", i+1)
					return
				}
				ix, fresh := f.Index(), source.NewIndex([]byte(want[i]))
				if !bytes.Equal(ix.Source(), []byte(want[i])) || ix.LineCount() != fresh.LineCount() {
					errs <- fmt.Errorf("version %d: index is not the text's", i+1)
					return
				}
				for l := range fresh.LineCount() {
					if ix.LineSpan(l) != fresh.LineSpan(l) {
						errs <- fmt.Errorf("version %d: line %d at %v, fresh %v", i+1, l, ix.LineSpan(l), fresh.LineSpan(l))
						return
					}
				}
				got, exp := criteriaAt(f.Criteria()), criteriaAt(pi.ParseCriteria([]byte(want[i])))
				if got != exp {
					errs <- fmt.Errorf("version %d: criteria %s, fresh parse %s", i+1, got, exp)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// criteriaAt lists the criteria by id and heading span.
func criteriaAt(c *pi.Criteria) string {
	var out []string
	for _, cr := range c.Criteria {
		out = append(out, fmt.Sprintf("%s@%v", cr.ID, cr.HeadingSpan()))
	}
	return strings.Join(out, ",")
}
