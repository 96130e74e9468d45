package pi

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// TestCheckPutsBlocksAsEachFinding: the criteria file's findings, as the
// check puts them (each block's carried findings placed where the block
// is, the few that are not a block's merged in, the limiter's cap applied
// as they go), are every block's findings placed one by one and the
// others, sorted, with the first diag.MaxPerCode of each code kept, under
// random edits of a register over the cap of a code (1,200 VALs with no
// Verifier: line), with ids repeated across blocks (a finding not a
// block's at the span of one of that block's), lines added and removed
// before blocks and findings added and removed before the cap. It fails
// when the limiter is not asked for a block's finding or a block is placed
// at another line; the order of the merge is not seen (Check sorts).
func TestCheckPutsBlocksAsEachFinding(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Criteria\n\n")
	for m := 1; m <= 240; m++ {
		fmt.Fprintf(&b, "## m%d Stage %d\n\n", m, m)
		for v := 1; v <= 5; v++ {
			fmt.Fprintf(&b, "### VAL-M%d-%03d — Stage %d behaves, case %d\nIt behaves.\n\n", m, v, m, v)
		}
	}
	path, dir, _ := writeProject(t, gen.Project{Milestones: 1, VALs: 1})
	pieces := []string{"x", "\n", "é", "## m0 New\n\n", "### VAL-M3-001 — Again\nIt is.\n\n", "### VAL-M200-004 — Again\n\n",
		"Verifier: manual\nBecause: by hand\n", "### VAL-NEW-001 — New\n\n", "### Implement it\n", "### VAL-bad id\n"}
	var p CriteriaParser
	parse := LoadOptions{Criteria: func(_ string, src []byte) *Criteria { return p.Parse(src) }}
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	capped, repeated := 0, 0
	editAtRandom([]byte(b.String()), pieces, 26, 80, func(step int, src []byte) {
		if t.Failed() {
			return
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		d := LoadDirWith(vfs.OS, dir, parse)
		got := Check(context.Background(), viewOf(vfs.OS, d), Options{Now: now})[path]
		ix := d.File(path).Index
		var want []diag.Diagnostic
		ours := map[diag.Code]bool{}
		for _, b := range d.Criteria.found {
			for _, dg := range b.ds {
				ours[dg.Code] = true
				dg.Place(path, b.at, ix.Line(b.at))
				want = append(want, dg)
			}
		}
		var notes []diag.Diagnostic
		for _, dg := range got {
			switch {
			case dg.Code == diag.AnalysisCapped:
				notes = append(notes, dg)
			case !ours[dg.Code]:
				want = append(want, dg) // not a block's: made by the check alone
				if dg.Code == diag.DuplicateVALID {
					repeated++
				}
			}
		}
		diag.Sort(want)
		n := map[diag.Code]int{}
		kept := want[:0]
		for _, dg := range want {
			if n[dg.Code]++; n[dg.Code] <= diag.MaxPerCode {
				kept = append(kept, dg)
			}
		}
		for _, note := range notes {
			kept = diag.InsertSorted(kept, note)
			capped++
		}
		if !reflect.DeepEqual(got, kept) {
			for i := range min(len(got), len(kept)) {
				if !reflect.DeepEqual(got[i], kept[i]) {
					t.Fatalf("step %d: at %d of %d/%d:\n got %+v\nwant %+v", step, i, len(got), len(kept), got[i], kept[i])
				}
			}
			t.Fatalf("step %d: %d findings, want %d", step, len(got), len(kept))
		}
	})
	if capped == 0 || repeated == 0 {
		t.Fatalf("%d steps capped a code, %d repeated ids: the test did not see what it is for", capped, repeated)
	}
}
