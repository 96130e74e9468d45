package inflight

import (
	"sync/atomic"
	"testing"
	"time"
)

// Wait returns once every piece of work is done, including work that
// started while it was waiting.
func TestWaitCoversWorkStartedWhileWaiting(t *testing.T) {
	c := New()
	var finished atomic.Int32
	c.Add()
	go func() {
		time.Sleep(10 * time.Millisecond)
		c.Add() // more work starts before the first ends
		go func() {
			time.Sleep(10 * time.Millisecond)
			finished.Add(1)
			c.Done()
		}()
		finished.Add(1)
		c.Done()
	}()
	c.Wait()
	if n := finished.Load(); n != 2 {
		t.Errorf("Wait returned with %d of 2 pieces finished", n)
	}
	c.Wait() // at zero: returns at once
	var nilCounter *Counter
	nilCounter.Add()
	nilCounter.Done()
	nilCounter.Wait()
}
