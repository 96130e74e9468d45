package hostile_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/hostile"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// editCost is what n edits of a worst-case document cost a server (in
// this process, through a real connection): the CPU time the process
// used, the goroutines before, at the peak and once settled, the live
// heap before and after, and the process's resident memory after (client
// and test included).
type editCost struct {
	sent, settled      time.Duration
	cpu                time.Duration
	before, peak, left int
	heapBefore, heap   uint64
	rss                int64
	publishes          int
}

// editWorstCase opens document doc at size and sends n edits back to back
// (debounce 0: every edit starts a check), each inserting or deleting a
// character at the top, then waits until the server has settled.
func editWorstCase(t testing.TB, doc string, size, n int) editCost {
	t.Helper()
	d, ok := hostile.Lookup(doc)
	if !ok {
		t.Fatalf("no document %s", doc)
	}
	root := t.TempDir()
	path := d.Write(t, root, size)
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	c := lsptest.Start(t, lsptest.Config{Root: root, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(rel, string(text))
	c.WaitDiagnostics(u, 1)
	c.Sync()
	var ec editCost
	ec.before, ec.heapBefore = runtime.NumGoroutine(), liveHeap()
	cpu0 := cpuTime()
	var peak atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			if g := int64(runtime.NumGoroutine()); g > peak.Load() {
				peak.Store(g)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	start := time.Now()
	for v := int32(2); v < int32(n)+2; v++ {
		e := lsptest.Edit{Text: "x"}
		if v%2 == 1 {
			e = lsptest.Edit{EndChar: 1}
		}
		c.Change(u, v, e)
	}
	ec.sent = time.Since(start)
	c.Sync()
	ec.settled = time.Since(start)
	close(stop)
	wg.Wait()
	ec.cpu, ec.peak = cpuTime()-cpu0, int(peak.Load())
	// The server publishes each new version's diagnostics to a client that
	// reads versions (as this one does): the client's record of them is
	// not the server's memory.
	ec.publishes = len(c.Published(u))
	c.ForgetPublished()
	ec.left, ec.heap = runtime.NumGoroutine(), liveHeap()
	ec.rss = procStatus("/proc/self/status", "VmRSS:") * 1024
	return ec
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// Edits of a worst-case document do not pile up work in the server: each
// newer version stops the check of the older one (the parses and checks
// take the request's context), so after 300 edits sent back to back the
// goroutines are those of before and the live heap holds one version.
func TestEditsOfAWorstCaseDocumentDoNotAccumulate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("getrusage")
	}
	for _, doc := range []string{"rp1-section/quotes", "criteria/many-vals", "charters/unknown-depends"} {
		t.Run(doc, func(t *testing.T) {
			const size = 256 << 10
			ec := editWorstCase(t, doc, size, 300)
			t.Logf("300 edits sent in %v, settled after %v; CPU %v; goroutines %d before, peak %d, %d after; live heap %d MB before, %d MB after; %d publishes",
				ec.sent.Round(time.Millisecond), ec.settled.Round(time.Millisecond), ec.cpu.Round(time.Millisecond), ec.before, ec.peak, ec.left, ec.heapBefore>>20, ec.heap>>20, ec.publishes)
			if ec.left > ec.before+2 {
				t.Errorf("%d goroutines left after the edits settled, %d before", ec.left, ec.before)
			}
			if ec.heap > ec.heapBefore+16*size+(8<<20) {
				t.Errorf("live heap %d MB after the edits, %d MB before: versions were kept", ec.heap>>20, ec.heapBefore>>20)
			}
		})
	}
}

// BenchmarkEditsOfAWorstCaseDocument reports, for 300 edits of each 1 MB
// worst case, what docs/reliability.md quotes: CPU, peak goroutines, time
// to settle, live heap after.
func BenchmarkEditsOfAWorstCaseDocument(b *testing.B) {
	for _, doc := range []string{"rp1-section/quotes", "rp1-scratch-pad/ordered-lists", "criteria/many-vals", "charters/unknown-depends"} {
		b.Run(doc, func(b *testing.B) {
			var ec editCost
			for b.Loop() {
				ec = editWorstCase(b, doc, 1<<20, 300)
			}
			b.ReportMetric(ec.cpu.Seconds(), "cpu-s")
			b.ReportMetric(ec.settled.Seconds(), "settled-s")
			b.ReportMetric(float64(ec.peak), "peak-goroutines")
			b.ReportMetric(float64(ec.left-ec.before), "goroutines-left")
			b.ReportMetric(float64(ec.heap>>20), "heap-after-MB")
			b.ReportMetric(float64(ec.rss>>20), "rss-after-MB")
		})
	}
}
