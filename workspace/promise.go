package workspace

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/charter-lsp/charter-lsp/internal/inflight"
)

// promise computes a value at most once and shares it between everyone who
// asks, as gopls's memoize.Promise does. The computation runs under its own
// context, cancelled when every caller waiting for it has given up (their
// contexts are done): a superseded or cancelled request stops the work it
// started, unless another request still wants the result. A cancelled
// computation stores nothing, so a later caller starts it again.
type promise[T any] struct {
	fn    func(context.Context) (T, error)
	track *inflight.Counter // counts computations in flight (Session.Wait); may be nil

	mu      sync.Mutex
	done    bool
	val     T
	err     error
	run     *run // the computation in flight, or nil
	waiters int
}

type run struct {
	cancel   context.CancelFunc
	finished chan struct{}
}

func newPromise[T any](track *inflight.Counter, fn func(context.Context) (T, error)) *promise[T] {
	return &promise[T]{fn: fn, track: track}
}

// get returns the value, computing it if nobody has yet. It returns ctx's
// error if ctx is done first.
func (p *promise[T]) get(ctx context.Context) (T, error) {
	for {
		p.mu.Lock()
		if p.done {
			defer p.mu.Unlock()
			return p.val, p.err
		}
		if err := ctx.Err(); err != nil {
			p.mu.Unlock()
			var zero T
			return zero, err
		}
		r := p.run
		if r == nil && ctx.Done() == nil {
			// A caller that can never give up has nothing to cancel:
			// it computes the value itself, and those who ask meanwhile
			// wait for it. No goroutine is started (check asks for tens
			// of thousands of values this way, each on a fresh stack
			// otherwise).
			return p.compute()
		}
		if r == nil {
			r = p.start()
		}
		p.waiters++
		p.mu.Unlock()

		select {
		case <-r.finished:
			p.mu.Lock()
			p.waiters--
			p.mu.Unlock()
			// Either done, or cancelled for lack of waiters while we were
			// being scheduled: look again.
		case <-ctx.Done():
			p.mu.Lock()
			p.waiters--
			if p.waiters == 0 && p.run == r {
				r.cancel()
			}
			p.mu.Unlock()
			var zero T
			return zero, ctx.Err()
		}
	}
}

// start launches the computation; p.mu is held.
func (p *promise[T]) start() *run {
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel, finished: make(chan struct{})}
	p.run = r
	p.track.Add()
	go func() {
		defer p.track.Done()
		defer close(r.finished)
		defer cancel()
		v, err := call(ctx, p.fn)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.run = nil
		if ctx.Err() != nil {
			return // nobody wanted it any more: keep nothing
		}
		p.done, p.val, p.err = true, v, err
		p.fn = nil // release what the closure holds
	}()
	return r
}

// compute runs the computation on the caller's goroutine, under a context
// that is never done, and keeps its value; p.mu is held, and released.
func (p *promise[T]) compute() (T, error) {
	r := &run{cancel: func() {}, finished: make(chan struct{})}
	p.run = r
	p.track.Add()
	p.mu.Unlock()
	defer p.track.Done()
	v, err := call(context.Background(), p.fn)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.run = nil
	p.done, p.val, p.err = true, v, err
	p.fn = nil
	close(r.finished)
	return v, err
}

// call runs fn, turning a panic into an error: a bug in one check must not
// take the server down.
func call[T any](ctx context.Context, fn func(context.Context) (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v\n%s", r, debug.Stack())
		}
	}()
	return fn(ctx)
}

// peek returns the value if it is computed.
func (p *promise[T]) peek() (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.val, p.done
}

// running reports whether the computation is in flight.
func (p *promise[T]) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run != nil
}
