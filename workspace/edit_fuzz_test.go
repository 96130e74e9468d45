package workspace

import (
	"context"
	"io/fs"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// FuzzIncrementalEdits applies a random sequence of edits to a document,
// snapshot after snapshot (what didChange does), and checks that the result
// is exactly what an editor holds: the text of a reference model that
// splices bytes at editor positions, and the line index and diagnostics of
// a fresh open of that text. What snapshots carry over (indexes, parses,
// diagnostics) must never make an edited document differ from a freshly
// opened one.
func FuzzIncrementalEdits(f *testing.F) {
	f.Add([]byte("# Charter\n\n## Problem\nTBD\n"), []byte{0, 3, 9, 1, 2, 5, 7, 0, 1, 4, 200, 9})
	f.Add([]byte("é🚀 x\r\n## Users\r\n- a\r"), []byte{1, 0, 0, 3, 2, 1, 1, 4, 5, 2, 9, 9, 9, 9})
	f.Add([]byte("## Milestone M1\n### VAL-A-1\n- **Verifier:** go test\n"), []byte{128, 5, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte("\xff\x00\r\r\n"), []byte{2, 255, 255, 255, 255, 1, 3, 0, 0, 0})
	// Versions are written in the memory made ahead for them too
	// (Document.PrepareEdit), whatever the text's size.
	defer func(n int) { spareMin = n }(spareMin)
	spareMin = 0
	f.Fuzz(func(t *testing.T, initial, ops []byte) {
		if len(initial) > 4096 || len(ops) > 256 {
			return
		}
		path := "/fuzz/charter.md"
		if len(ops) > 0 && ops[0]&128 != 0 {
			path = "/fuzz/.pi/charters/c/criteria.md" // a pi-charter file
		}
		ctx := context.Background()
		edited := NewSession(Options{Disk: emptyFS{}})
		doc := NewDocument(path, 1, initial)
		snap := edited.Update(Change{Documents: []*Document{doc}})
		want := string(initial)
		version := int32(1)
		for r := (opReader{ops: ops}); !r.done(); {
			version++
			var changes []TextChange
			for n := 1 + int(r.next()%3); n > 0 && !r.done(); n-- {
				c, after := r.change(want)
				changes = append(changes, c)
				want = after
			}
			// Diagnose the version before the edit, so the next one carries
			// over what it can.
			if _, err := snap.Diagnostics(ctx, path); err != nil {
				t.Fatal(err)
			}
			switch version % 4 {
			case 0, 2: // made, as after a publish the client reads
				snap.File(path).PrepareEdit()
				doc.spare.Load().Wait()
			case 1: // being made, or made: taken only if made
				snap.File(path).PrepareEdit()
			}
			next, err := doc.Apply(version, changes, snap.File(path).Index())
			if err != nil {
				t.Fatalf("change %d: %v", version, err)
			}
			doc = next
			snap = edited.Update(Change{Documents: []*Document{doc}})
			if string(snap.File(path).Text) != want {
				t.Fatalf("after version %d (%+v):\n got %q\nwant %q", version, changes, doc.Text, want)
			}
		}

		// The edited document and a fresh open of its text must diagnose alike.
		fresh := NewSession(Options{Disk: emptyFS{}})
		fsnap := fresh.Update(Change{Documents: []*Document{NewDocument(path, version, []byte(want))}})
		if k, fk := snap.File(path).Kind(), fsnap.File(path).Kind(); k != fk {
			t.Fatalf("kind %v after edits, %v when opened", k, fk)
		}
		if ix, fix := snap.File(path).Index(), fsnap.File(path).Index(); ix.LineCount() != fix.LineCount() {
			t.Fatalf("index after edits has %d lines, fresh %d", ix.LineCount(), fix.LineCount())
		}
		got, err1 := snap.Diagnostics(ctx, path)
		exp, err2 := fsnap.Diagnostics(ctx, path)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(got, exp) {
			t.Fatalf("diagnostics differ after edits:\n got %+v (%v)\nwant %+v (%v)", got, err1, exp, err2)
		}
	})
}

// opReader turns fuzzer bytes into edits.
type opReader struct {
	ops []byte
	i   int
}

func (r *opReader) done() bool { return r.i >= len(r.ops) }

func (r *opReader) next() byte {
	if r.done() {
		return 0
	}
	b := r.ops[r.i]
	r.i++
	return b
}

// snippets are the texts edits insert: line ends of every kind, multi-byte
// and astral characters, invalid UTF-8, and charter structure.
var snippets = []string{"", "x", "\n", "\r\n", "\r", "é", "🚀", "\xff", "\x00", "## Problem\n", "### VAL-A-1\n",
	"## Scratch Pad\n### Q1: Brain Dump\n**Asked**: a\n", "**Answer**: y", "TBD", "- **Verifier:** go test ./...\n", "<!-- charter-lsp-disable -->"}

// change reads one edit against text and returns it with the text it
// produces. Most edits are what an editor sends (valid positions, computed
// independently of source.Index); some are hostile (positions past the end,
// reversed ranges), whose expected effect is the clamped splice.
func (r *opReader) change(text string) (TextChange, string) {
	kind := r.next() % 8
	ins := snippets[int(r.next())%len(snippets)]
	switch kind {
	case 0: // replace the whole text
		return TextChange{Whole: true, Text: ins + text[:len(text)/2]}, ins + text[:len(text)/2]
	case 1: // hostile: raw positions, possibly out of range or reversed
		rg := source.Range{
			Start: source.Position{Line: int(r.next() % 16), Character: int(r.next())},
			End:   source.Position{Line: int(r.next() % 16), Character: int(r.next())},
		}
		sp := source.NewIndex([]byte(text)).Span(rg)
		if sp.End < sp.Start {
			sp.Start, sp.End = sp.End, sp.Start
		}
		return TextChange{Range: rg, Text: ins}, text[:sp.Start] + ins + text[sp.End:]
	}
	stops := editorStops(text)
	a, b := stops[int(r.next())%len(stops)], stops[int(r.next())%len(stops)]
	if b.off < a.off {
		a, b = b, a
	}
	return TextChange{Range: source.Range{Start: a.pos, End: b.pos}, Text: ins}, text[:a.off] + ins + text[b.off:]
}

type stop struct {
	off int
	pos source.Position
}

// editorStops lists every place an editor's cursor can be, with its LSP
// position: between characters (an invalid byte is one character), never
// inside a line terminator. Columns count UTF-16 code units.
func editorStops(text string) []stop {
	var out []stop
	line, col := 0, 0
	for i := 0; ; {
		out = append(out, stop{off: i, pos: source.Position{Line: line, Character: col}})
		if i >= len(text) {
			return out
		}
		switch {
		case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
			i, line, col = i+2, line+1, 0
		case text[i] == '\r' || text[i] == '\n':
			i, line, col = i+1, line+1, 0
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size
			col++
			if r >= 0x10000 {
				col++ // a surrogate pair
			}
		}
	}
}

// emptyFS is a disk with no files: the fuzzed documents exist only as open
// documents.
type emptyFS struct{}

func (emptyFS) ReadFile(string) ([]byte, error)       { return nil, fs.ErrNotExist }
func (emptyFS) Stat(string) (fs.FileInfo, error)      { return nil, fs.ErrNotExist }
func (emptyFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, fs.ErrNotExist }
