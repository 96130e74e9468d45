package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcNow reads the collector's percent and soft limit without changing them.
func gcNow() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func unsetenv(t *testing.T, key string) {
	t.Setenv(key, "") // restores the variable when the test ends
	os.Unsetenv(key)
}

func TestBatchGCSetsAndRestores(t *testing.T) {
	unsetenv(t, "GOGC")
	unsetenv(t, "GOMEMLIMIT")
	percent, limit := gcNow()
	restore := batchGC()
	if p, l := gcNow(); p != batchGCPercent || l != batchMemoryLimit {
		t.Errorf("during a batch run: GOGC %d, limit %d; want %d, %d", p, l, batchGCPercent, batchMemoryLimit)
	}
	restore()
	if p, l := gcNow(); p != percent || l != limit {
		t.Errorf("after: GOGC %d, limit %d; want the earlier %d, %d", p, l, percent, limit)
	}
}

func TestBatchGCLeavesTheUsersSettings(t *testing.T) {
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	percent, limit := gcNow()
	defer batchGC()()
	if p, l := gcNow(); p != percent || l != limit {
		t.Errorf("with GOGC and GOMEMLIMIT set: GOGC %d, limit %d; want them untouched (%d, %d)", p, l, percent, limit)
	}
}

// The server's percent follows the live heap after each collection: the
// most while little is live, the default's 100 once serverHeadroom or more
// is; stopping puts back the percent there was.
func TestServerGCPacesByTheLiveHeap(t *testing.T) {
	unsetenv(t, "GOGC")
	percent, _ := gcNow()
	stop := serverGC()
	defer stop()
	// waitFor collects until the pacer has set want (its cleanup runs on
	// its own goroutine after a collection).
	waitFor := func(what string, want int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			runtime.GC()
			if p, _ := gcNow(); p == want {
				return
			}
			if time.Now().After(deadline) {
				p, _ := gcNow()
				t.Fatalf("%s: GOGC %d, want %d", what, p, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("little live", serverMaxGCPercent)
	live := make([][]byte, 0, 2*serverHeadroom>>20)
	for range cap(live) {
		live = append(live, make([]byte, 1<<20))
	}
	waitFor(fmt.Sprintf("%d MiB live", len(live)), 100)
	runtime.KeepAlive(live)
	live = nil
	waitFor("released", serverMaxGCPercent)
	stop()
	if p, _ := gcNow(); p != percent {
		t.Errorf("after stop: GOGC %d, want the earlier %d", p, percent)
	}
}

func TestServerGCLeavesTheUsersGOGC(t *testing.T) {
	t.Setenv("GOGC", "50")
	percent, _ := gcNow()
	defer serverGC()()
	runtime.GC()
	runtime.GC()
	if p, _ := gcNow(); p != percent {
		t.Errorf("with GOGC set: GOGC %d, want it untouched (%d)", p, percent)
	}
}
