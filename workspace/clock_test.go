package workspace_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// A reading of the history that timed out is kept through the snapshots
// made before its back-off passes (a keystroke does not cost the deadline
// again), read again by the first snapshot after it, with the back-off
// doubling while it keeps timing out; a source change reads it at once,
// and a reading that does not time out starts the back-off over.
func TestTimedOutReadingIsKeptUntilItsBackOff(t *testing.T) {
	repo := testfixture.FreshEvidenceRepo(t, true)
	dir := filepath.Join(repo, filepath.FromSlash(testfixture.FreshEvidenceDir))
	var busy atomic.Bool
	var readings atomic.Int32
	var mu sync.Mutex
	var delays []time.Duration
	sess := workspace.NewSession(workspace.Options{
		GitLimits: func() gitlog.Limits {
			readings.Add(1)
			if busy.Load() {
				return gitlog.Limits{Timeout: time.Nanosecond}
			}
			return gitlog.Limits{}
		},
		Reread: func(d time.Duration) {
			mu.Lock()
			delays = append(delays, d)
			mu.Unlock()
		},
	})
	// verdict reads the charter's view in a new snapshot made by c.
	verdict := func(c workspace.Change) (stale, unjudged int) {
		t.Helper()
		v, err := sess.Update(c).PiView(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range v.Unjudged {
			if u.Unread == nil || !u.Unread.TimedOut() {
				t.Errorf("unjudged %s without a timed-out reading: %+v", u.Criterion.ID, u.Unread)
			}
		}
		return len(v.Stale), len(v.Unjudged)
	}
	check := func(when string, stale, unjudged int, n int32, want ...time.Duration) {
		t.Helper()
		s, u := verdict(workspace.Change{})
		mu.Lock()
		got := slices.Clone(delays)
		mu.Unlock()
		if s != stale || u != unjudged || readings.Load() != n || !slices.Equal(got, want) {
			t.Errorf("%s: %d stale, %d unjudged, %d readings, back-offs %v; want %d, %d, %d, %v",
				when, s, u, readings.Load(), got, stale, unjudged, n, want)
		}
	}

	busy.Store(true)
	check("first reading, timed out", 0, 1, 1, time.Second)
	check("a snapshot before the back-off passed", 0, 1, 1, time.Second)
	time.Sleep(time.Second)
	check("after it, still busy", 0, 1, 2, time.Second, 2*time.Second)

	busy.Store(false)
	source := filepath.Join(repo, "src", "api", "export.go")
	if s, u := verdict(workspace.Change{Disk: []string{source}}); s != 1 || u != 0 || readings.Load() != 3 {
		t.Errorf("a source change: %d stale, %d unjudged, %d readings; want 1, 0, 3 (read at once)", s, u, readings.Load())
	}
	check("a snapshot after a reading that did not time out", 1, 0, 3, time.Second, 2*time.Second)

	busy.Store(true)
	if _, u := verdict(workspace.Change{Disk: []string{source}}); u != 1 {
		t.Errorf("busy again: %d unjudged, want 1", u)
	}
	check("timed out again after a good reading", 0, 1, 4, time.Second, 2*time.Second, time.Second)
}
