package workspace

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// goroutineID is the running goroutine's number, from its stack's first
// line ("goroutine 7 [running]:").
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return string(bytes.Fields(buf)[1])
}

// A caller whose context can never be done computes the value on its own
// goroutine; others who ask meanwhile wait for it, and one of them giving
// up cancels nothing: the computation runs for the caller that cannot.
func TestPromiseComputedByCallerThatCannotGiveUp(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	var calls atomic.Int32
	var ranOn string
	var ranCtx context.Context
	p := newPromise(nil, func(ctx context.Context) (int, error) {
		calls.Add(1)
		ranOn, ranCtx = goroutineID(), ctx
		close(started)
		<-release
		return 42, nil
	})
	type answer struct {
		v   int
		err error
		on  string
	}
	first := make(chan answer)
	go func() {
		v, err := p.get(context.Background())
		first <- answer{v, err, goroutineID()}
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error)
	go func() {
		_, err := p.get(ctx)
		gaveUp <- err
	}()
	time.Sleep(10 * time.Millisecond) // the second caller is waiting
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("the caller that gave up got %v", err)
	}
	if ranCtx.Err() != nil {
		t.Error("a waiter giving up cancelled the computation of a caller that cannot")
	}
	close(release)
	a := <-first
	if a.err != nil || a.v != 42 {
		t.Fatalf("get = %d, %v", a.v, a.err)
	}
	if a.on != ranOn {
		t.Errorf("computed on goroutine %s, asked on %s", ranOn, a.on)
	}
	if v, err := p.get(ctx); v != 42 || err != nil || calls.Load() != 1 {
		t.Errorf("afterwards get = %d, %v after %d computations", v, err, calls.Load())
	}
}

// A caller that may give up has the value computed on a goroutine of its
// own, cancelled when every caller has given up, which keeps nothing.
func TestPromiseCancelledWhenEveryCallerGivesUp(t *testing.T) {
	var calls atomic.Int32
	var ranOn string
	p := newPromise(nil, func(ctx context.Context) (int, error) {
		calls.Add(1)
		ranOn = goroutineID()
		<-ctx.Done()
		return 0, ctx.Err()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := p.get(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("get = %v", err)
	}
	for p.running() {
		time.Sleep(time.Millisecond)
	}
	if _, done := p.peek(); done {
		t.Error("a cancelled computation was kept")
	}
	if ranOn == goroutineID() {
		t.Error("computed on the goroutine of a caller that may give up")
	}
	p.fn = func(context.Context) (int, error) { calls.Add(1); return 7, nil }
	if v, err := p.get(context.Background()); v != 7 || err != nil || calls.Load() != 2 {
		t.Errorf("asked again: %d, %v after %d computations", v, err, calls.Load())
	}
}
