package source

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// applyOneByOne is the reference: each change spliced into a fresh copy of
// the text at the positions a fresh index maps it to.
func applyOneByOne(src []byte, changes []Change) []byte {
	for _, c := range changes {
		src = splice(src, NewIndex(src).Span(c.Range), c.Text)
	}
	return src
}

// fragments are what random texts and changes are made of: every line
// terminator (and a "\r" and "\n" that may meet across a change), multi-byte
// and astral characters, and plain text.
var fragments = []string{"a", "bc", "\n", "\r\n", "\r", "é", "🚀", "—", "\t", " ", "xyz\n", "\r\r\n\n", "\uFFFD"}

func randomText(r *rand.Rand, parts int) string {
	var b strings.Builder
	for range parts {
		b.WriteString(fragments[r.IntN(len(fragments))])
	}
	return b.String()
}

// randomChanges are changes at positions a client may send: mostly inside
// the text, some past the end of a line or of the document, some reversed,
// some inside a surrogate pair.
func randomChanges(r *rand.Rand, n, lines int) []Change {
	pos := func() Position {
		return Position{Line: r.IntN(lines + 2), Character: r.IntN(12)}
	}
	out := make([]Change, n)
	for i := range out {
		out[i] = Change{Range: Range{Start: pos(), End: pos()}, Text: randomText(r, r.IntN(4))}
	}
	return out
}

// The rope applies any sequence of changes exactly as applying them one by
// one to the text does, whatever the pieces (a piece size of 1 to 7 bytes
// puts a boundary everywhere: inside "\r\n", between a line and its
// terminator). What ApplyChangesKept says was kept was kept, and the index
// updated from it is a fresh one's, for one change and for several.
func TestApplyChangesMatchesOneByOne(t *testing.T) {
	defer func(n int) { pieceSize = n }(pieceSize)
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 3000 {
		pieceSize = 1 + round%7
		src := []byte(randomText(r, r.IntN(30)))
		changes := randomChanges(r, 1+r.IntN(7), NewIndex(src).LineCount())
		want := applyOneByOne(append([]byte(nil), src...), changes)
		got, kept := ApplyChangesKept(src, nil, changes)
		if string(got) != string(want) {
			t.Fatalf("piece size %d, text %q, changes %+v:\n got %q\nwant %q", pieceSize, src, changes, got, want)
		}
		if kept.Prefix > CommonPrefix(src, got) || kept.Suffix > CommonSuffix(src, got) {
			t.Fatalf("text %q, changes %+v: kept %+v, but %q and %q share less", src, changes, kept, src, got)
		}
		if ix, fresh := NewIndex(src).Update(got, kept), NewIndex(got); !slices.Equal(ix.lines, fresh.lines) {
			t.Fatalf("text %q, changes %+v: lines %v, want %v", src, changes, ix.lines, fresh.lines)
		}
	}
}

func FuzzApplyChanges(f *testing.F) {
	f.Add("a\r\nb\rc\n🚀é", uint64(1), uint8(3), uint8(2))
	f.Add("", uint64(7), uint8(8), uint8(1))
	f.Add("\r", uint64(9), uint8(4), uint8(5))
	f.Fuzz(func(t *testing.T, text string, seed uint64, n, size uint8) {
		if !utf8.ValidString(text) || len(text) > 2000 {
			return
		}
		defer func(n int) { pieceSize = n }(pieceSize)
		pieceSize = 1 + int(size%16)
		r := rand.New(rand.NewPCG(seed, 0))
		changes := randomChanges(r, 2+int(n%16), NewIndex([]byte(text)).LineCount())
		want := applyOneByOne([]byte(text), changes)
		if got := ApplyChanges([]byte(text), nil, changes); string(got) != string(want) {
			t.Fatalf("changes %+v:\n got %q\nwant %q", changes, got, want)
		}
		// The first change alone, written in a spare of the text.
		src := []byte(text)
		spare := NewSpare(src, int(size))
		spare.Start()
		spare.Wait()
		one := applyOneByOne([]byte(text), changes[:1])
		if got, _ := ApplyChangesSpare(src, nil, changes[:1], spare); string(got) != string(one) || string(src) != text {
			t.Fatalf("change %+v in a spare of room %d:\n got %q\nwant %q (the text: %q)", changes[0], size, got, one, src)
		}
	})
}

// Invalid UTF-8 takes the one-by-one path, with the same result.
func TestApplyChangesInvalidUTF8(t *testing.T) {
	src := []byte("a\xe2\x82\n\xff")
	changes := []Change{
		{Range: Range{Start: Position{Line: 0, Character: 3}, End: Position{Line: 0, Character: 3}}, Text: "\xac"},
		{Range: Range{Start: Position{Line: 0, Character: 2}, End: Position{Line: 0, Character: 2}}, Text: "x"},
	}
	want := applyOneByOne(append([]byte(nil), src...), changes)
	if got := ApplyChanges(src, nil, changes); string(got) != string(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// ApplyChanges never modifies the text it is given (earlier versions of a
// document stay intact for the snapshots holding them).
func TestApplyChangesKeepsSource(t *testing.T) {
	src := []byte("one\ntwo\nthree\n")
	keep := string(src)
	ApplyChanges(src, nil, []Change{{Range: Range{Start: Position{Line: 1}, End: Position{Line: 1, Character: 3}}, Text: "2"}})
	ApplyChanges(src, nil, []Change{
		{Range: Range{Start: Position{Line: 0}, End: Position{Line: 0, Character: 1}}, Text: "O"},
		{Range: Range{Start: Position{Line: 2}, End: Position{Line: 2, Character: 5}}, Text: "3"},
	})
	if string(src) != keep {
		t.Fatalf("source modified: %q", src)
	}
}
