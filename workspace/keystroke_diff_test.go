package workspace

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// TestKeystrokeDiagnosticsMatchFresh is the differential test of what a
// keystroke reuses: a pi criteria.md is edited again and again, each
// snapshot made from the one before (what didChange does, with the parse,
// the view, the check and their carried parts reused), and after every
// edit its diagnostics must be exactly those of a fresh session opening
// the same text: ranges, spans, messages, codes, order, related
// information and fixes. The edits are what breaks reuse: typing inside a
// line, adding and removing lines, an id made a duplicate of another and
// back, milestone headings changed, verifier lines changed, headings
// broken and restored, and undoing the edit before.
func TestKeystrokeDiagnosticsMatchFresh(t *testing.T) {
	type base struct {
		name  string
		root  string // the workspace folder
		path  string // its criteria.md, opened as it is on disk
		edits int
	}
	var bases []base
	write := func(name string, p gen.Project, edits int) {
		root := t.TempDir()
		path, err := p.Write(root)
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, base{name: name, root: root, path: path, edits: edits})
	}
	// The keystroke benchmark's register, smaller (every finding the
	// generator makes is in it), with evidence and source files so that
	// stale evidence is reported; and the large one, briefly.
	write("gen", gen.Project{Milestones: 12, VALs: 10, Runs: 60, Sources: 3}, 100)
	write("gen-state", gen.Project{Milestones: 6, VALs: 9, Runs: 80, Sources: 2, State: true}, 60)
	write("gen-large", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: 2}, 6)
	fixture, err := filepath.Abs(filepath.Join("..", "testdata", "fixtures", "pi-project"))
	if err != nil {
		t.Fatal(err)
	}
	bases = append(bases, base{name: "fixture", root: fixture,
		path: filepath.Join(fixture, ".pi", "charters", "auth-rework", "criteria.md"), edits: 60})
	// The parser's corpus: each register as the criteria.md of a charter.
	corpus, err := filepath.Glob(filepath.Join("..", "analysis", "pi", "testdata", "criteria", "*.txt"))
	if err != nil || len(corpus) == 0 {
		t.Fatalf("no parser corpus: %v", err)
	}
	for _, c := range corpus {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		text, _, _ := strings.Cut(string(b), "---- want ----\n")
		root := t.TempDir()
		path, err := gen.Project{Milestones: 1, VALs: 1, Sources: 1}.Write(root)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		bases = append(bases, base{name: filepath.Base(c), root: root, path: path, edits: 25})
	}

	ctx := context.Background()
	for i, b := range bases {
		t.Run(b.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(26, uint64(i)))
			text, err := os.ReadFile(b.path)
			if err != nil {
				t.Fatal(err)
			}
			sess := NewSession(Options{})
			sess.Update(Change{Roots: &[]string{b.root}})
			doc := NewDocument(b.path, 1, text)
			snap := sess.Update(Change{Documents: []*Document{doc}})
			compareFresh(ctx, t, b.root, b.path, snap, "opened")
			var undo *TextChange
			for n := range b.edits {
				cur := string(snap.File(b.path).Text)
				var ch TextChange
				var what string
				if undo != nil && rng.IntN(4) == 0 {
					ch, what = *undo, "undo"
				} else {
					ch, what = keystroke(rng, cur)
				}
				var u TextChange
				doc, snap, u = editAndCompare(ctx, t, sess, b.root, doc, snap, ch, fmt.Sprintf("edit %d (%s: %+v)", n+1, what, ch))
				undo = &u
				if t.Failed() {
					return
				}
			}
		})
	}
}

// editAndCompare applies ch to doc, open in sess whose latest snapshot is
// snap, makes the next snapshot from snap, and compares its diagnostics
// with a fresh open's (compareFresh); it returns the new version, its
// snapshot and the change that undoes ch.
func editAndCompare(ctx context.Context, t *testing.T, sess *Session, root string, doc *Document, snap *Snapshot, ch TextChange, after string) (*Document, *Snapshot, TextChange) {
	t.Helper()
	cur := string(snap.File(doc.Path).Text)
	next, err := doc.Apply(doc.Version+1, []TextChange{ch}, snap.File(doc.Path).Index())
	if err != nil {
		t.Fatal(err)
	}
	undo := inverse(cur, string(next.Text), ch)
	snap = sess.Update(Change{Documents: []*Document{next}})
	compareFresh(ctx, t, root, doc.Path, snap, after)
	return next, snap, undo
}

// compareFresh compares snap's diagnostics of path with those of a new
// session that opens the same text.
func compareFresh(ctx context.Context, t *testing.T, root, path string, snap *Snapshot, after string) {
	t.Helper()
	got, err := snap.Diagnostics(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fresh := NewSession(Options{})
	fresh.Update(Change{Roots: &[]string{root}})
	fsnap := fresh.Update(Change{Documents: []*Document{NewDocument(path, 1, snap.File(path).Text)}})
	want, err := fsnap.Diagnostics(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after %s: the diagnostics differ from a fresh open's\n%s", after, diagDiff(got, want))
	}
}

// diagDiff describes the first difference of two diagnostic lists.
func diagDiff(got, want []diag.Diagnostic) string {
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Sprintf("at %d of %d/%d:\n got %+v\nwant %+v", i, len(got), len(want), got[i], want[i])
		}
	}
	return fmt.Sprintf("%d diagnostics, want %d", len(got), len(want))
}

// keystrokeLines are whole lines an edit inserts or writes over another:
// verifier and field lines of each kind, VAL and milestone headings, and
// what turns a block into another.
var keystrokeLines = []string{
	"", "Verifier: manual", "Verifier: comand", "Verifier: command", "Verifier: evidence-exists", "Verifier:",
	"Because: checked by hand", "Command: go test -run 'TestFoo' ./...", "Fresh evidence required: true",
	"Kind: review", "FreshSince: 2026-02-30", "Comand: go test ./...", "- **Verifier:** go test ./...",
	"### VAL-NEW-001 — Added", "### VAL-bad id", "### Implement the thing", "## m99-new A new milestone",
	"## ", "# Criteria", "## Criteria", "## VAL-UNG-001 — Ungrouped", "<!-- charter-lsp-disable-next-line -->",
}

// keystroke picks one edit of text, as an editor sends it, and says what
// it is.
func keystroke(rng *rand.Rand, text string) (TextChange, string) {
	lines := strings.SplitAfter(text, "\n")
	stops := editorStops(text)
	lineStart := make([]int, len(lines)) // index in stops of each line's first
	for i, l := 0, 0; i < len(stops) && l < len(lines); i++ {
		if stops[i].pos.Line == l {
			lineStart[l] = i
			l++
		}
	}
	at := func(off int) source.Position {
		for _, s := range stops {
			if s.off == off {
				return s.pos
			}
		}
		panic("no stop at offset")
	}
	offOf := func(line int) int {
		if line >= len(lines) {
			return len(text)
		}
		return stops[lineStart[line]].off
	}
	// replaceLine writes s over line l's text (not its line break).
	replaceLine := func(l int, s string) TextChange {
		body := strings.TrimRight(lines[l], "\r\n")
		start := offOf(l)
		return TextChange{Range: source.Range{Start: at(start), End: at(start + len(body))}, Text: s}
	}
	// withPrefix picks a line starting with one of prefixes, or -1.
	withPrefix := func(prefixes ...string) int {
		var ls []int
		for i, l := range lines {
			for _, p := range prefixes {
				if strings.HasPrefix(l, p) {
					ls = append(ls, i)
					break
				}
			}
		}
		if len(ls) == 0 {
			return -1
		}
		return ls[rng.IntN(len(ls))]
	}
	l := rng.IntN(len(lines))
	switch k := rng.IntN(10); k {
	case 0, 1: // type a character inside a line
		s := stops[rng.IntN(len(stops))]
		return TextChange{Range: source.Range{Start: s.pos, End: s.pos}, Text: []string{"x", " ", "é", "🚀", "-"}[rng.IntN(5)]}, "type"
	case 2: // delete a character
		i := rng.IntN(len(stops) - 1)
		if stops[i+1].pos.Line != stops[i].pos.Line {
			return TextChange{Range: source.Range{Start: stops[i].pos, End: stops[i].pos}, Text: "y"}, "type"
		}
		return TextChange{Range: source.Range{Start: stops[i].pos, End: stops[i+1].pos}}, "delete"
	case 3: // insert a line
		p := at(offOf(l))
		return TextChange{Range: source.Range{Start: p, End: p}, Text: keystrokeLines[rng.IntN(len(keystrokeLines))] + "\n"}, "insert line"
	case 4: // delete a line or two
		end := min(l+1+rng.IntN(2), len(lines))
		return TextChange{Range: source.Range{Start: at(offOf(l)), End: at(offOf(end))}}, "delete lines"
	case 5: // a VAL's id: another's (a duplicate), or one letter changed
		h := withPrefix("### VAL-", "## VAL-")
		if h < 0 {
			break
		}
		hashes, rest, _ := strings.Cut(strings.TrimRight(lines[h], "\r\n"), " ")
		if o := withPrefix("### VAL-", "## VAL-"); rng.IntN(2) == 0 && o >= 0 {
			_, other, _ := strings.Cut(strings.TrimRight(lines[o], "\r\n"), " ")
			id, _, _ := strings.Cut(other, " ")
			_, title, _ := strings.Cut(rest, " ")
			return replaceLine(h, hashes+" "+id+" "+title), "duplicate id"
		}
		return replaceLine(h, hashes+" "+strings.Replace(rest, "-", []string{"-Z", "_", "-0"}[rng.IntN(3)], 1)), "change id"
	case 6: // a milestone heading
		h := withPrefix("## ", "# ")
		if h < 0 {
			break
		}
		body := strings.TrimRight(lines[h], "\r\n")
		_, rest, _ := strings.Cut(body, " ")
		return replaceLine(h, []string{"# " + rest, "### " + rest, "## ", "## m7-renamed " + rest, "## " + rest + " x"}[rng.IntN(5)]), "milestone heading"
	case 7: // a verifier or field line
		v := withPrefix("Verifier:", "Command:", "Because:", "Fresh evidence", "Kind:")
		if v < 0 {
			break
		}
		return replaceLine(v, keystrokeLines[1+rng.IntN(12)]), "field line"
	case 8: // break a heading, or make a line one
		if h := withPrefix("#"); h >= 0 && rng.IntN(2) == 0 {
			start := at(offOf(h))
			return TextChange{Range: source.Range{Start: start, End: source.Position{Line: start.Line, Character: 1}}}, "break heading"
		}
		p := at(offOf(l))
		return TextChange{Range: source.Range{Start: p, End: p}, Text: []string{"#", "## ", "### "}[rng.IntN(3)]}, "make heading"
	case 9: // replace a span across lines
		i := rng.IntN(len(stops))
		j := min(i+rng.IntN(400), len(stops)-1)
		return TextChange{Range: source.Range{Start: stops[i].pos, End: stops[j].pos}, Text: keystrokeLines[rng.IntN(len(keystrokeLines))]}, "replace span"
	}
	p := at(offOf(l))
	return TextChange{Range: source.Range{Start: p, End: p}, Text: "z"}, "type"
}

// inverse is the change that takes after back to before, ch having made
// it.
func inverse(before, after string, ch TextChange) TextChange {
	ix := source.NewIndex([]byte(before))
	sp := ix.Span(ch.Range)
	end := sp.Start + len(ch.Text)
	var endPos source.Position
	for _, s := range editorStops(after) {
		if s.off == end {
			endPos = s.pos
			break
		}
	}
	return TextChange{Range: source.Range{Start: ch.Range.Start, End: endPos}, Text: before[sp.Start:sp.End]}
}
