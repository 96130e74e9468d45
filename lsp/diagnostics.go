package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// diagnoser computes and publishes diagnostics: after a change it waits for
// the debounce delay, cancels the run a newer change supersedes, checks the
// document through the overlay and publishes with the document's version,
// skipping a publish identical to the last one.
type diagnoser struct {
	s *Server

	mu        sync.Mutex // guards the fields below, and orders publishes
	runs      map[uri.URI]*diagRun
	published map[uri.URI]diagResult
	pulled    map[uri.URI]string // result id a pull client last received
	pending   *counter           // runs scheduled and not yet finished

	refreshing atomic.Bool // a workspace/diagnostic/refresh is in flight
}

type diagRun struct{ cancel context.CancelFunc }

// diagResult is one computed set of diagnostics.
type diagResult struct {
	version  int32
	items    []protocol.Diagnostic
	resultID string // a digest of items: equal ids mean equal diagnostics
}

func newDiagnoser(s *Server) *diagnoser {
	return &diagnoser{s: s, runs: map[uri.URI]*diagRun{}, published: map[uri.URI]diagResult{},
		pulled: map[uri.URI]string{}, pending: newCounter()}
}

// debounce is the configured delay before a check.
func (g *diagnoser) debounce() time.Duration {
	ms := analysis.DefaultDebounceMs
	if cfg := g.s.Config(); cfg.DebounceMs != nil {
		ms = *cfg.DebounceMs
	}
	return time.Duration(ms) * time.Millisecond
}

// schedule starts a (debounced) check of the open document u, cancelling
// the one in progress.
func (g *diagnoser) schedule(u uri.URI) {
	if g.s.ctx == nil {
		return // not serving
	}
	ctx, cancel := context.WithCancel(g.s.ctx)
	run := &diagRun{cancel: cancel}
	g.mu.Lock()
	if old := g.runs[u]; old != nil {
		old.cancel()
	}
	g.runs[u] = run
	g.pending.add()
	g.mu.Unlock()

	delay := g.debounce()
	go func() {
		defer g.pending.done()
		defer cancel()
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		d := g.s.sess.get(u)
		if d == nil || !d.IsCharter() || ctx.Err() != nil {
			return
		}
		res, err := g.compute(d)
		if err != nil {
			g.s.log.Warn("check failed", zap.String("file", d.Path), zap.Error(err))
			return
		}
		g.publish(ctx, run, d, res)
	}()
}

// scheduleAll re-checks every open charter document.
func (g *diagnoser) scheduleAll() {
	for _, d := range g.s.sess.all() {
		if d.IsCharter() {
			g.schedule(d.URI)
		}
	}
}

// compute checks one document version.
func (g *diagnoser) compute(d *Document) (res diagResult, err error) {
	defer func() {
		// A check must never take the server down; report it instead.
		if r := recover(); r != nil {
			err = fmt.Errorf("check panicked: %v", r)
		}
	}()
	ds, err := g.s.checker(g.s.fs, d.Path, g.s.Config())
	if err != nil {
		return diagResult{}, err
	}
	mine := ds[:0:0]
	for _, x := range ds {
		switch x.File {
		case "":
			// Not located yet: locate against this very version.
			one := []diag.Diagnostic{x}
			diag.Locate(one, d.Path, d.Index())
			mine = append(mine, one[0])
		case d.Path:
			mine = append(mine, x)
		}
	}
	diag.Sort(mine)
	items := toProtocolDiagnostics(mine)
	return diagResult{version: d.Version, items: items, resultID: digest(items)}, nil
}

// publish sends res unless a newer run replaced this one, the document
// moved on, or the client already has exactly these diagnostics.
func (g *diagnoser) publish(ctx context.Context, run *diagRun, d *Document, res diagResult) {
	g.mu.Lock()
	defer g.mu.Unlock() // held while sending, so publishes keep their order
	if ctx.Err() != nil || g.runs[d.URI] != run {
		return
	}
	delete(g.runs, d.URI)
	if cur := g.s.sess.get(d.URI); cur == nil || cur.Version != d.Version {
		return
	}
	if last, ok := g.published[d.URI]; ok && last.resultID == res.resultID {
		return
	}
	g.published[d.URI] = res
	if pull, refresh := g.pullClient(); pull {
		// A pull client asks for diagnostics itself (after its own edits);
		// pushing too would show each one twice. When a re-check finds
		// something the client has not pulled (another file changed), ask
		// it to pull again.
		if refresh && g.pulled[d.URI] != res.resultID {
			g.refresh()
		}
		return
	}
	g.notify(d.URI, &d.Version, res.items)
}

// pullClient reports whether the client pulls diagnostics, and whether it
// accepts workspace/diagnostic/refresh.
func (g *diagnoser) pullClient() (pull, refresh bool) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return g.s.caps.pullDiagnostics, g.s.caps.diagnosticRefresh
}

// served records the result id a pull request returned.
func (g *diagnoser) served(u uri.URI, resultID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pulled[u] = resultID
}

// refresh sends workspace/diagnostic/refresh, one at a time and outside
// the diagnoser's lock: the client answers it by pulling, and the pull
// handler needs that lock.
func (g *diagnoser) refresh() {
	if g.s.client == nil || !g.refreshing.CompareAndSwap(false, true) {
		return
	}
	g.pending.add()
	go func() {
		defer g.pending.done()
		defer g.refreshing.Store(false)
		if err := g.s.client.DiagnosticRefresh(context.WithoutCancel(g.s.ctx)); err != nil {
			g.s.log.Debug("diagnostic refresh", zap.Error(err))
		}
	}()
}

// clear forgets u and publishes an empty list, as the client expects on close.
func (g *diagnoser) clear(u uri.URI) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r := g.runs[u]; r != nil {
		r.cancel()
		delete(g.runs, u)
	}
	delete(g.published, u)
	delete(g.pulled, u)
	g.notify(u, nil, []protocol.Diagnostic{})
}

// notify sends textDocument/publishDiagnostics; items is never nil.
func (g *diagnoser) notify(u uri.URI, version *int32, items []protocol.Diagnostic) {
	if g.s.client == nil {
		return
	}
	p := &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: items}
	if version != nil {
		p.Version = protocol.NewOptional(*version)
	}
	if err := g.s.client.PublishDiagnostics(context.WithoutCancel(g.s.ctx), p); err != nil {
		g.s.log.Warn("publishing diagnostics", zap.String("uri", string(u)), zap.Error(err))
	}
}

// cancelAll stops every pending run (on shutdown).
func (g *diagnoser) cancelAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for u, r := range g.runs {
		r.cancel()
		delete(g.runs, u)
	}
}

// settle blocks until every scheduled run has published or given up.
func (g *diagnoser) settle() { g.pending.wait() }

// wait cancels every run and blocks until they have all stopped.
func (g *diagnoser) wait() {
	g.cancelAll()
	g.settle()
}
