package analysis

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// BenchmarkCheckFile checks a generated criteria.md from disk, as
// `charter-lsp check` does (one fresh Checker per run).
func BenchmarkCheckFile(b *testing.B) {
	for _, sz := range []struct {
		name             string
		milestones, vals int
	}{{"100VALs", gen.RealisticMilestones, gen.RealisticVALs}, {"5000VALs", gen.LargeMilestones, gen.LargeVALs}} {
		b.Run(sz.name, func(b *testing.B) {
			path, err := gen.Project{Milestones: sz.milestones, VALs: sz.vals, Runs: 20, Sources: 50}.Write(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				ds, err := CheckFile(vfs.OS, path, Config{})
				if err != nil || len(ds) == 0 {
					b.Fatalf("%d diagnostics, %v", len(ds), err)
				}
			}
		})
	}
}
