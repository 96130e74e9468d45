// Package inflight counts work in progress and lets a caller wait until
// there is none: the server's handlers and debounced runs, the workspace's
// computations. Unlike sync.WaitGroup, work may start while someone waits
// (a keystroke arriving while a test settles the server), and a nil
// *Counter counts nothing.
package inflight

import "sync"

// Counter is the number of pieces of work in progress.
type Counter struct {
	mu   sync.Mutex
	n    int
	zero *sync.Cond
}

// New returns a Counter at zero.
func New() *Counter {
	c := &Counter{}
	c.zero = sync.NewCond(&c.mu)
	return c
}

// Add counts one more piece of work.
func (c *Counter) Add() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Done counts one piece of work finished.
func (c *Counter) Done() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.n--
	if c.n == 0 {
		c.zero.Broadcast()
	}
	c.mu.Unlock()
}

// Wait returns when no work is in progress.
func (c *Counter) Wait() {
	if c == nil {
		return
	}
	c.mu.Lock()
	for c.n > 0 {
		c.zero.Wait()
	}
	c.mu.Unlock()
}
