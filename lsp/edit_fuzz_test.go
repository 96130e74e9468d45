package lsp

import (
	"io/fs"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// FuzzIncrementalEdits applies a random sequence of didChange edits through
// the session (the code DidChange runs) and checks that the result is
// exactly what an editor holds: the text of a reference model that splices
// bytes at editor positions, and the diagnostics of a fresh open of that
// text. Caches kept across versions (indexes, parsed models) must never make
// an edited document differ from a freshly opened one.
func FuzzIncrementalEdits(f *testing.F) {
	f.Add([]byte("# Charter\n\n## Problem\nTBD\n"), []byte{0, 3, 9, 1, 2, 5, 7, 0, 1, 4, 200, 9})
	f.Add([]byte("é🚀 x\r\n## Users\r\n- a\r"), []byte{1, 0, 0, 3, 2, 1, 1, 4, 5, 2, 9, 9, 9, 9})
	f.Add([]byte("## Milestone M1\n### VAL-A-1\n- **Verifier:** go test\n"), []byte{128, 5, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte("\xff\x00\r\r\n"), []byte{2, 255, 255, 255, 255, 1, 3, 0, 0, 0})
	f.Fuzz(func(t *testing.T, initial, ops []byte) {
		if len(initial) > 4096 || len(ops) > 256 {
			return
		}
		path := "/fuzz/charter.md"
		if len(ops) > 0 && ops[0]&128 != 0 {
			path = "/fuzz/.pi/charters/c/criteria.md" // a pi-charter file
		}
		u := uri.File(path)
		edited := New(Options{Disk: emptyFS{}})
		if _, err := edited.sess.open(u, "markdown", 1, initial); err != nil {
			t.Fatal(err)
		}
		want := string(initial)
		version := int32(1)
		for r := (opReader{ops: ops}); !r.done(); {
			version++
			var changes []Change
			for n := 1 + int(r.next()%3); n > 0 && !r.done(); n-- {
				c, after := r.change(want)
				changes = append(changes, c)
				want = after
			}
			d, err := edited.sess.change(u, version, changes)
			if err != nil {
				t.Fatalf("change %d: %v", version, err)
			}
			if string(d.Text) != want {
				t.Fatalf("after version %d (%+v):\n got %q\nwant %q", version, changes, d.Text, want)
			}
		}

		// The edited document and a fresh open of its text must diagnose alike.
		fresh := New(Options{Disk: emptyFS{}})
		fd, err := fresh.sess.open(u, "markdown", version, []byte(want))
		if err != nil {
			t.Fatal(err)
		}
		ed := edited.sess.get(u)
		if ed.Kind != fd.Kind {
			t.Fatalf("kind %v after edits, %v when opened", ed.Kind, fd.Kind)
		}
		got, err1 := edited.diags.compute(ed)
		exp, err2 := fresh.diags.compute(fd)
		if (err1 == nil) != (err2 == nil) || got.resultID != exp.resultID {
			t.Fatalf("diagnostics differ after edits:\n got %+v (%v)\nwant %+v (%v)", got.items, err1, exp.items, err2)
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
func (r *opReader) change(text string) (Change, string) {
	kind := r.next() % 8
	ins := snippets[int(r.next())%len(snippets)]
	switch kind {
	case 0: // replace the whole text
		return Change{Whole: true, Text: ins + text[:len(text)/2]}, ins + text[:len(text)/2]
	case 1: // hostile: raw positions, possibly out of range or reversed
		rg := source.Range{
			Start: source.Position{Line: int(r.next() % 16), Character: int(r.next())},
			End:   source.Position{Line: int(r.next() % 16), Character: int(r.next())},
		}
		sp := source.NewIndex([]byte(text)).Span(rg)
		if sp.End < sp.Start {
			sp.Start, sp.End = sp.End, sp.Start
		}
		return Change{Range: rg, Text: ins}, text[:sp.Start] + ins + text[sp.End:]
	}
	stops := editorStops(text)
	a, b := stops[int(r.next())%len(stops)], stops[int(r.next())%len(stops)]
	if b.off < a.off {
		a, b = b, a
	}
	return Change{Range: source.Range{Start: a.pos, End: b.pos}, Text: ins}, text[:a.off] + ins + text[b.off:]
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

// Equal diagnostics must have equal digests, whatever order Go iterates
// their Data maps in: the digest decides republishing and pull resultIds.
func TestDiagnosticDigestIsDeterministic(t *testing.T) {
	d := diag.New(diag.SectionMissing, source.Span{}, "x")
	d.Data = map[string]string{"section": "users", "heading": "Target Users", "a": "1", "b": "2", "c": "3"}
	first := digest(toProtocolDiagnostics([]diag.Diagnostic{d}))
	for range 50 {
		if got := digest(toProtocolDiagnostics([]diag.Diagnostic{d})); got != first {
			t.Fatalf("digest %s, then %s for the same diagnostic", first, got)
		}
	}
}
