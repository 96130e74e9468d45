package workspace

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// TestKeystrokeBlocksMatchFresh edits a register whose blocks' findings
// are placed block by block (pi's checkCriteria) where that is most
// likely to go stale: lines added and removed before blocks, a byte typed
// within a line, a finding added before the limiter's cap of a code (so
// the 1,000th of it moves to another block), one removed, an id made a
// duplicate of a later block's (a finding not a block's own, falling
// among that block's at the same span) and back, and a milestone deleted.
// After each edit the diagnostics must be a fresh open's.
func TestKeystrokeBlocksMatchFresh(t *testing.T) {
	const milestones, vals = 240, 5 // 1,200 VALs with no Verifier: line, over diag.MaxPerCode
	var b strings.Builder
	b.WriteString("# Criteria\n\n")
	for m := 1; m <= milestones; m++ {
		fmt.Fprintf(&b, "## m%d Stage %d\n\n", m, m)
		for v := 1; v <= vals; v++ {
			fmt.Fprintf(&b, "### VAL-M%d-%03d — Stage %d behaves, case %d\nIt behaves.\n\n", m, v, m, v)
		}
	}
	root := t.TempDir()
	path, err := gen.Project{Milestones: 1, VALs: 1, Sources: 1}.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess := NewSession(Options{})
	sess.Update(Change{Roots: &[]string{root}})
	doc := NewDocument(path, 1, []byte(b.String()))
	snap := sess.Update(Change{Documents: []*Document{doc}})
	got, err := snap.Diagnostics(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if !containsCode(got, diag.AnalysisCapped) {
		t.Fatalf("the register does not reach the cap of a code (%d diagnostics)", len(got))
	}
	compareFresh(ctx, t, root, path, snap, "opened")

	// Each edit replaces text[start:end] of the current text, found by what
	// it holds.
	type edit struct {
		what       string
		find       string // the edit is at the first occurrence of find
		skip       int    // bytes into it
		cut        int    // bytes of it replaced
		text       string
		undoBefore bool // undo the edit before first
	}
	edits := []edit{
		{what: "a line added before m2", find: "## m2 ", text: "Some words.\n\n"},
		{what: "that line removed", undoBefore: true},
		{what: "a byte typed in m3's heading", find: "## m3 ", skip: 3, text: "x"},
		{what: "a VAL with no verifier added to m1 (the cap moves a block back)", find: "## m2 ", text: "### VAL-M1-900 — Stage 1 also behaves\nIt does.\n\n"},
		{what: "a verifier given to a VAL of m4 (the cap moves a block on)", find: "### VAL-M4-002 — Stage 4 behaves, case 2\n", skip: len("### VAL-M4-002 — Stage 4 behaves, case 2\n"), text: "Verifier: manual\nBecause: by hand\n"},
		{what: "m10's first id made m150's", find: "VAL-M10-001 ", cut: len("VAL-M10-001"), text: "VAL-M150-003"},
		{what: "the duplicate undone", undoBefore: true},
		{what: "a VAL of m200 given m210's id (a later block's finding at the same span)", find: "VAL-M210-002 ", cut: len("VAL-M210-002"), text: "VAL-M200-002"},
		{what: "lines removed before m50", find: "### VAL-M49-004 ", cut: len("### VAL-M49-004 — Stage 49 behaves, case 4\nIt behaves.\n\n")},
		{what: "milestone m7 deleted", find: "## m7 ", cut: strings.Index(b.String(), "## m8 ") - strings.Index(b.String(), "## m7 ")},
		{what: "a line break typed in the last heading", find: "## m240 ", skip: 2, text: "\n"},
	}
	var undo *TextChange
	for n, e := range edits {
		cur := string(snap.File(path).Text)
		var ch TextChange
		if e.undoBefore {
			ch = *undo
		} else {
			at := strings.Index(cur, e.find)
			if at < 0 {
				t.Fatalf("edit %d (%s): %q is not in the text", n+1, e.what, e.find)
			}
			start := at + e.skip
			ch = TextChange{Range: source.Range{Start: positionOf(cur, start), End: positionOf(cur, start+e.cut)}, Text: e.text}
		}
		var u TextChange
		doc, snap, u = editAndCompare(ctx, t, sess, root, doc, snap, ch, fmt.Sprintf("edit %d (%s)", n+1, e.what))
		undo = &u
		if t.Failed() {
			return
		}
	}
}

// positionOf is the LSP position of byte off of text, whose lines are
// ASCII but for the em dashes of headings (one UTF-16 unit each).
func positionOf(text string, off int) source.Position {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return source.Position{Line: line, Character: len([]rune(text[start:off]))}
}

func containsCode(ds []diag.Diagnostic, code diag.Code) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}
