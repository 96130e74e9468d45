package main

import (
	"os"
	"runtime/debug"
	"testing"
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
