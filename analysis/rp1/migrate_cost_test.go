package rp1

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/hostile"
)

// BenchmarkMigrateHostile migrates every attack placed in an rp1 charter
// at 1 MB, as a code action on a scratch-pad charter does
// (CHARTER_BENCH_ONLY picks documents by name).
func BenchmarkMigrateHostile(b *testing.B) {
	only := os.Getenv("CHARTER_BENCH_ONLY")
	for _, size := range []int{32 << 10, 1 << 20} {
		for _, d := range hostile.Documents() {
			if !strings.HasPrefix(d.Name, "rp1") || (only != "" && !strings.Contains(d.Name, only)) {
				continue
			}
			src := []byte(d.Files(size)[filepath.ToSlash(d.File)])
			ch := Parse(src)
			b.Run(fmt.Sprintf("%s/%dKB", d.Name, size>>10), func(b *testing.B) {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				n := 0
				for b.Loop() {
					MigrateAction(ch, time.Unix(2e9, 0))
					n++
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/float64(len(src)), "B/in-byte")
			})
		}
	}
}
