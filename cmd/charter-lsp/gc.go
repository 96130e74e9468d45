package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The collector's settings for a batch command (check): a run that reads a
// tree once and exits trades latency for throughput, unlike the server
// (serverGC, below). Go's default (GOGC=100) collects each
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

// The server's collector, paced by what is live. With Go's default the
// heap doubles between collections; the server's live heap is small (a
// 5,000-VAL register and its diagnostics are ≈ 16–30 MB) while a keystroke
// in that register allocates ≈ 3.5 MB (the text, the parse of what moved,
// the diagnostics), so it collected every four or five keystrokes and the
// collector was ≈ 40 % of a keystroke's CPU (docs/performance.md, "The
// keystroke: the passes over the file"). serverGC lets the heap grow by
// serverHeadroom past what the last collection found live, as a GOGC of
// 100 to serverMaxGCPercent set again after each collection: a small live
// heap is collected several times less often, for at most serverHeadroom
// of memory; a live heap of serverHeadroom or more (a long evidence
// history, a workspace of thousands of charters) is paced as by the
// default.
const (
	serverHeadroom     = 24 << 20
	serverMaxGCPercent = 400
)

// serverGC starts pacing the collector for the server, unless the user set
// GOGC (a GOMEMLIMIT of theirs still applies). The returned function stops
// it and puts back the percent there was.
func serverGC() (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	p := &gcPacer{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	p.mu.Lock()
	p.percent = serverMaxGCPercent // nothing is live yet
	p.old = debug.SetGCPercent(p.percent)
	p.mu.Unlock()
	p.arm()
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.stopped = true
		debug.SetGCPercent(p.old)
	}
}

// gcPacer sets the collector's percent after each collection.
type gcPacer struct {
	mu      sync.Mutex
	sample  []metrics.Sample
	percent int // the one set
	old     int // the one before serverGC
	stopped bool
}

// gcSentinel is an object nothing keeps: its cleanup runs after the
// collection that finds it unreachable, that is after each collection.
type gcSentinel struct{ _ *byte } // a pointer: not in the tiny allocator, which may never free it

// arm asks to be called after the next collection.
func (p *gcPacer) arm() {
	runtime.AddCleanup(new(gcSentinel), (*gcPacer).collected, p)
}

func (p *gcPacer) collected() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	metrics.Read(p.sample)
	live := max(p.sample[0].Value.Uint64(), 1)
	percent := int(min(max(serverHeadroom*100/live, 100), serverMaxGCPercent))
	if percent != p.percent {
		p.percent = percent
		debug.SetGCPercent(percent)
	}
	p.arm()
}
