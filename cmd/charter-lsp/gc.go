package main

import (
	"os"
	"runtime/debug"
)

// The collector's settings for a batch command (check): a run that reads a
// tree once and exits trades latency for throughput, unlike the server,
// which keeps the runtime's defaults. Go's default (GOGC=100) collects each
// time the heap doubles; check's live heap is small (a charter folder is
// released once printed), so on a monorepo it collects some forty times a
// second and the collector takes ≈ 10 % of the CPU (docs/performance.md,
// issue 26). batchGC lets the heap grow to four times what is live, under a
// soft limit that keeps the whole process near batchMemoryLimit: where the
// live heap is large (a long evidence history), the limit, not GOGC, paces
// the collector, so the run stays smaller than with the default.
//
// A user's GOGC or GOMEMLIMIT wins: each is set only when its variable is
// not. The returned function puts back what was set (tests run check
// in-process).
const (
	batchGCPercent   = 300
	batchMemoryLimit = 128 << 20
)

func batchGC() (restore func()) {
	var undo []func()
	if _, set := os.LookupEnv("GOGC"); !set {
		old := debug.SetGCPercent(batchGCPercent)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		old := debug.SetMemoryLimit(batchMemoryLimit)
		undo = append(undo, func() { debug.SetMemoryLimit(old) })
	}
	return func() {
		for _, f := range undo {
			f()
		}
	}
}
