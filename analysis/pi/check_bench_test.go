package pi

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// BenchmarkCheckCriteria is the check of a register's criteria.md alone,
// as a keystroke's (Options.Only): the view's staleness judged once, then
// each iteration puts the file's findings (1,327 for the 5,000 VALs with
// 20 runs) in a new output.
func BenchmarkCheckCriteria(b *testing.B) {
	for _, sz := range sizes {
		b.Run(sz.name, func(b *testing.B) {
			path, err := gen.Project{Milestones: sz.milestones, VALs: sz.vals, Runs: 20, Sources: 100}.Write(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			v := viewOf(vfs.OS, LoadDir(vfs.OS, filepath.Dir(path)))
			opts := Options{Now: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), Only: path}
			n := len(Check(context.Background(), v, opts)[path])
			b.ReportMetric(float64(n), "diagnostics")
			b.ReportAllocs()
			for b.Loop() {
				Check(context.Background(), v, opts)
			}
		})
	}
}
