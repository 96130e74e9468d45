package charterfile

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// dependsChain is a file-interface charter of n criteria where each
// depends on the next; closing makes the last depend on the first.
func dependsChain(n int, closing bool) []byte {
	var b strings.Builder
	b.WriteString("## Objective\n\nx\n\n## Criteria\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "### C%d. Criterion %d\n", i, i)
		switch {
		case i < n:
			fmt.Fprintf(&b, "Depends: C%d\n", i+1)
		case closing:
			b.WriteString("Depends: C1\n")
		}
		b.WriteString("Status: pending\n\n")
	}
	return []byte(b.String())
}

// A long Depends chain (1.4 MB of charter, far under the size limit) is
// walked in memory linear in its length. The cycle walk used to copy the
// path at every step: 20,000 criteria allocated 3 GB.
func TestLongDependsChainIsCheap(t *testing.T) {
	for _, closing := range []bool{false, true} {
		src := dependsChain(20000, closing)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c := ParseFI15(src)
		runtime.ReadMemStats(&after)
		if len(c.Criteria) != 20000 {
			t.Fatalf("parsed %d criteria, want 20000", len(c.Criteria))
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("closing=%v: parsing a 20,000-criterion chain allocated %d MB, want under 64 MB", closing, alloc>>20)
		}
		cycles := 0
		for _, w := range c.Warnings {
			if w.Code == diag.DependsCycle {
				cycles++
				if !strings.HasPrefix(w.Text, "dependency cycle: C1 -> C2 -> ") || !strings.HasSuffix(w.Text, " -> C20000 -> C1") {
					t.Errorf("cycle message %.60q…%q", w.Text, w.Text[len(w.Text)-30:])
				}
			}
		}
		if want := map[bool]int{false: 0, true: 1}[closing]; cycles != want {
			t.Errorf("closing=%v: %d cycle warnings, want %d", closing, cycles, want)
		}
	}
}
