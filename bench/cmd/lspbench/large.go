package main

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// largeResult is the charter folder with a long evidence history, after
// its first load: what a user does there and how long each takes.
type largeResult struct {
	load       float64 // open → first diagnostics, ms
	loadRSSKB  int64   // server RSS after the first publish
	full       float64 // open → every run read (the "Reading evidence" progress ended), ms; 0: no such progress
	fullRSSKB  int64   // server RSS then
	hover      latencies
	lens       latencies
	edit       latencies
	concurrent latencies // hovers sent eight at a time
	unwatched  latencies // keystrokes from a client that cannot watch files
}

// latencies are one request's timings and failures (a timeout, an error).
type latencies struct {
	ms     []float64
	failed int
	err    error // the first failure
}

func (l *latencies) add(ms float64, err error) {
	if err != nil {
		l.failed++
		if l.err == nil {
			l.err = err
		}
		return
	}
	l.ms = append(l.ms, ms)
}

func (l latencies) p50() float64 { return median(l.ms) }

func (l latencies) max() float64 {
	if len(l.ms) == 0 {
		return 0
	}
	s := append([]float64(nil), l.ms...)
	sort.Float64s(s)
	return s[len(s)-1]
}

// cell renders the median and the worst, and the failures.
func (l latencies) cell() string {
	s := ms(l.p50()) + " (max " + ms(l.max()) + ")"
	if len(l.ms) == 0 {
		s = "—"
	}
	if l.failed > 0 {
		s += fmt.Sprintf(", %d of %d failed: %.60v", l.failed, l.failed+len(l.ms), l.err)
	}
	return s
}

// measureLarge opens the register of a charter folder with a long
// evidence history and times hover, code lens, a keystroke and concurrent
// hovers. n scales the number of samples (the pre-redesign binary takes
// seconds per request there). previewed says the binary reads the history
// in the background under a "Reading evidence" progress (an earlier commit
// reads it all before its first publish and reports none).
func measureLarge(bin, root, file string, n int, previewed bool) (largeResult, error) {
	var r largeResult
	s, err := startSession(bin, root, file, true)
	if err != nil {
		return r, err
	}
	defer s.close()
	heading, verifier, _ := positions(s.text)
	start := time.Now()
	if err := s.open(1); err != nil {
		return r, err
	}
	r.load = since(start)
	r.loadRSSKB = rss(s.cmd.Process.Pid)
	// A long history is previewed from the runs criterion-state.json
	// names; the rest is read in the background under a progress report.
	if !previewed {
		r.full, r.fullRSSKB = r.load, r.loadRSSKB
	} else if p, err := s.c.progressTitled("Reading evidence", 2*time.Minute); err == nil {
		r.full = float64(p.end.Sub(start).Microseconds()) / 1000
		r.fullRSSKB = rss(s.cmd.Process.Pid)
	}

	hover := map[string]any{"textDocument": s.doc, "position": heading}
	for range n {
		r.hover.add(s.call("textDocument/hover", hover))
	}
	for range n {
		r.lens.add(s.call("textDocument/codeLens", map[string]any{"textDocument": s.doc}))
	}
	version := int32(1)
	for range n {
		version++
		t := time.Now()
		err := s.edit(version, verifier)
		r.edit.add(since(t), err)
		if err != nil {
			break // the versions after it would wait for this one
		}
	}
	// Eight hovers at once, as several views of an editor ask together.
	for range max(n/8, 1) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := s.call("textDocument/hover", hover)
				mu.Lock()
				r.concurrent.add(d, err)
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	s.close()

	// A client that cannot watch files: the server looks at the disk (a
	// stat per run) at most every two seconds, in the background.
	u, err := startSession(bin, root, file, false)
	if err != nil {
		return r, err
	}
	defer u.close()
	if err := u.open(1); err != nil {
		return r, err
	}
	if previewed {
		_, _ = u.c.progressTitled("Reading evidence", 2*time.Minute) // after the first load, as above
	}
	version = 1
	for i := range n {
		version++
		if i%5 == 4 {
			time.Sleep(500 * time.Millisecond) // let a look at the disk start
		}
		t := time.Now()
		err := u.edit(version, verifier)
		r.unwatched.add(since(t), err)
		if err != nil {
			break
		}
	}
	return r, nil
}
