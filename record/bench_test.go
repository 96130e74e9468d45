package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// BenchmarkPlanLargeState plans one record into a criterion-state.json of
// n VALs: the JSON object is read, updated and written in one pass, so the
// cost grows linearly with n (one scan per key made 100k keys take over
// 15 s).
func BenchmarkPlanLargeState(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			_, dir := fixture(b)
			state := filepath.Join(dir, "criterion-state.json")
			old, err := os.ReadFile(state)
			if err != nil {
				b.Fatal(err)
			}
			var extra strings.Builder
			for i := range n {
				fmt.Fprintf(&extra, "    \"VAL-X-%06d\": 0,\n", i)
			}
			huge := strings.Replace(string(old), "\"criteria\": {\n", "\"criteria\": {\n"+extra.String(), 1)
			if err := os.WriteFile(state, []byte(huge), 0o644); err != nil {
				b.Fatal(err)
			}
			entry := []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier"}}
			b.SetBytes(int64(len(huge)))
			b.ResetTimer()
			for b.Loop() {
				if _, err := Plan(vfs.OS, dir, entry, Options{Now: t0}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
