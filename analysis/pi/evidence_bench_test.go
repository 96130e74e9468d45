package pi

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// BenchmarkEvidenceRetained loads a history of runs and reports the heap
// the loaded evidence keeps per run (retained-B/run): what a long history
// costs the server after its first load.
func BenchmarkEvidenceRetained(b *testing.B) {
	const runs = 5000
	path, err := gen.Project{Milestones: 10, VALs: 10, Runs: runs}.Write(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Dir(path)
	var retained float64
	for b.Loop() {
		before := heapInUse()
		ev, err := LoadEvidence(context.Background(), vfs.OS, dir)
		if err != nil || len(ev.Runs) != runs {
			b.Fatalf("%d runs, %v", len(ev.Runs), err)
		}
		retained += float64(heapInUse() - before)
		runtime.KeepAlive(ev)
	}
	b.ReportMetric(retained/float64(b.N)/runs, "retained-B/run")
}

// heapInUse is the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
