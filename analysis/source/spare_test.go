package source

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// A text written in a spare is the text the edit makes, byte for byte,
// whatever the edit (inserting, deleting, replacing, at either end, more
// than the spare's room): the spare is taken when the copy is made and the
// new text fits, once, and the text it copies is never written.
func TestSpareSpliceMatchesSplice(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 2000 {
		src := []byte(randomText(r, r.IntN(40)))
		before := string(src)
		changes := randomChanges(r, 1, NewIndex(src).LineCount())
		if round%5 == 0 {
			changes[0].Text = strings.Repeat("grow ", r.IntN(20)) // past the room, often
		}
		want := applyOneByOne(append([]byte(nil), src...), changes)
		room := r.IntN(16)
		s := NewSpare(src, room)
		s.Start()
		s.Wait()
		span := NewIndex(src).Span(changes[0].Range)
		fits := len(want) <= len(src)+room
		got, _ := ApplyChangesSpare(src, nil, changes, s)
		if string(got) != string(want) {
			t.Fatalf("text %q, change %+v, room %d:\n got %q\nwant %q", src, changes[0], room, got, want)
		}
		if string(src) != before {
			t.Fatalf("text %q, change %+v: the text the spare copies was written: %q", before, changes[0], src)
		}
		if taken := s.taken.Load(); taken != fits {
			t.Fatalf("text %q, span %v, change %q, room %d: taken %v, fits %v", src, span, changes[0].Text, room, taken, fits)
		}
		if cap(got) != len(got) {
			t.Fatalf("text %q: the new text's room is open to appends (len %d, cap %d)", src, len(got), cap(got))
		}
		// Taken once: a second edit of the same text allocates its own.
		again, _ := ApplyChangesSpare(src, nil, changes, s)
		if string(again) != string(want) || len(again) > 0 && len(got) > 0 && &again[0] == &got[0] {
			t.Fatalf("text %q: the spare served a second edit", src)
		}
	}
}

// A spare serves only the text it copies: another text of the same bytes
// (not the same memory) allocates.
func TestSpareServesItsTextOnly(t *testing.T) {
	src := []byte("line one\nline two\n")
	s := NewSpare(src, 8)
	s.Start()
	s.Wait()
	other := []byte(string(src))
	change := []Change{{Range: Range{Start: Position{Line: 1, Character: 0}, End: Position{Line: 1, Character: 4}}, Text: "row"}}
	got, _ := ApplyChangesSpare(other, nil, change, s)
	if string(got) != "line one\nrow two\n" || s.taken.Load() {
		t.Fatalf("got %q, taken %v: the spare served a text it does not copy", got, s.taken.Load())
	}
	if got, _ = ApplyChangesSpare(src, nil, change, s); string(got) != "line one\nrow two\n" || !s.taken.Load() {
		t.Fatalf("got %q, taken %v: the spare did not serve its own text", got, s.taken.Load())
	}
}

// No edit sees a spare partly made: an edit that comes while the copy is
// being made allocates instead of waiting, and one that takes the spare
// reads it whole. Edits are made at once after Start, from another
// goroutine, while others read the text copied and make the same edit at
// once; every result is compared whole. Run with -race: a spare read before its copy is done, or an edit
// that writes the text it copies, is a race.
func TestSpareNeverSeenPartlyMade(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		b.WriteString("### VAL-X-")
		b.WriteString(strings.Repeat("y", i%7))
		b.WriteString("\n")
	}
	src := []byte(b.String())
	change := []Change{{Range: Range{Start: Position{Line: 10000, Character: 3}, End: Position{Line: 10000, Character: 3}}, Text: "Z"}}
	want := string(applyOneByOne(append([]byte(nil), src...), change))
	ix := NewIndex(src)
	taken := 0
	for range 200 {
		s := NewSpare(src, 64)
		s.Start()
		var wg sync.WaitGroup
		var got []byte
		var other []byte
		wg.Go(func() { got, _ = ApplyChangesSpare(src, ix, change, s) })
		wg.Go(func() { other, _ = ApplyChangesSpare(src, ix, change, s) }) // the same edit at once: one takes it
		wg.Go(func() {
			if string(src) != b.String() {
				t.Error("the text the spare copies changed")
			}
		})
		wg.Wait()
		if string(got) != want || string(other) != want {
			t.Fatal("an edit made while its spare was being copied differs from the edit applied to a copy")
		}
		if len(got) > 0 && &got[0] == &other[0] {
			t.Fatal("two edits were written in one spare")
		}
		if s.taken.Load() {
			taken++
		}
	}
	t.Logf("%d of 200 edits took their spare", taken)
}
