package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/lsp"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// Cancellation is measured in this process, where the computations can be
// seen: a heavy computation is started, cancelled part-way (at a tenth to
// nine tenths of the time it takes uncancelled), and the stop time runs
// from the cancel until no computation is in flight any more
// (workspace.Session.Wait, or lsp.Server.Settle) — when the work stopped,
// not when the client got its answer.

type stopResult struct {
	full     float64   // the computation uncancelled, ms
	stops    []float64 // ms
	finished int       // runs that had finished (answered) before the cancel
}

func (r stopResult) quantile(q float64) float64 {
	if len(r.stops) == 0 {
		return 0
	}
	s := append([]float64(nil), r.stops...)
	sort.Float64s(s)
	return s[int(q*float64(len(s)-1))]
}

func (r stopResult) cell() string {
	s := fmt.Sprintf("p50 %s, p90 %s, max %s", ms(r.quantile(0.5)), ms(r.quantile(0.9)), ms(r.quantile(1)))
	if r.finished > 0 {
		s += fmt.Sprintf(" (%d of %d answered in full before the cancel, not counted)", r.finished, r.finished+len(r.stops))
	}
	return s
}

// stopTimes runs start n times, each on fresh state, cancelling it part-way.
// start begins the work under ctx and returns a function that blocks until
// the work has stopped and reports whether it was cancelled (false: it had
// finished, and its answer was on its way, when the cancel came).
func stopTimes(n int, start func(ctx context.Context) (wait func() bool)) stopResult {
	var r stopResult
	t := time.Now()
	start(context.Background())()
	full := time.Since(t)
	r.full = float64(full.Microseconds()) / 1000
	for i := range n {
		ctx, cancel := context.WithCancel(context.Background())
		wait := start(ctx)
		time.Sleep(full * time.Duration(1+i%9) / 10)
		t := time.Now()
		cancel()
		if wait() {
			r.stops = append(r.stops, since(t))
		} else {
			r.finished++
		}
	}
	return r
}

// stopWorkspace measures work on a fresh session each time.
func stopWorkspace(n int, work func(ctx context.Context, sess *workspace.Session)) stopResult {
	return stopTimes(n, func(ctx context.Context) func() bool {
		sess := workspace.NewSession(workspace.Options{})
		done := make(chan struct{})
		go func() { work(ctx, sess); close(done) }()
		return func() bool { sess.Wait(); <-done; return true }
	})
}

// stopCharterLoad is the first load of a charter folder (every evidence
// run read, the register parsed, the view built).
func stopCharterLoad(dir string, n int) stopResult {
	return stopWorkspace(n, func(ctx context.Context, sess *workspace.Session) {
		_, _ = sess.Snapshot().PiView(ctx, dir)
	})
}

// stopCheck is the diagnostics of a register from scratch.
func stopCheck(file string, n int) stopResult {
	return stopWorkspace(n, func(ctx context.Context, sess *workspace.Session) {
		_, _ = sess.Snapshot().Diagnostics(ctx, file)
	})
}

// stopSymbols is workspace/symbol over the charters under root, through a
// server connection, cancelled with $/cancelRequest.
func stopSymbols(root string, n int) (stopResult, error) {
	var failed error
	r := stopTimes(n, func(cancelCtx context.Context) func() bool {
		srv := lsp.New(lsp.Options{NoScan: true}) // the request's own work, not the startup's
		a, b := net.Pipe()
		ctx, stop := context.WithCancel(context.Background())
		go srv.Serve(ctx, a)
		conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b), jsonrpc2.WithCodec(lsp.Codec{}))
		conn.Go(ctx, func(context.Context, *jsonrpc2.Request) (any, error) { return nil, nil })
		rootURI := uri.File(root)
		var init json.RawMessage
		if _, err := conn.Call(ctx, "initialize", map[string]any{"rootUri": rootURI, "capabilities": map[string]any{},
			"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "bench"}}}, &init); err != nil {
			failed = err
		}
		_ = conn.Notify(ctx, "initialized", map[string]any{})
		// The connection numbers its calls: initialize was 1, this is 2.
		answered := make(chan error, 1)
		go func() {
			var out json.RawMessage
			_, err := conn.Call(ctx, "workspace/symbol", map[string]any{"query": ""}, &out)
			answered <- err
		}()
		go func() {
			select {
			case <-cancelCtx.Done():
				_ = conn.Notify(ctx, "$/cancelRequest", map[string]any{"id": 2})
			case <-ctx.Done():
			}
		}()
		return func() bool {
			// The answer (RequestCancelled once the server has seen the
			// cancel, or the symbols when they were complete before it),
			// then the work still in flight. A complete answer is not a
			// stop: its time is that of sending 50,000 symbols.
			err := <-answered
			srv.Settle()
			stop()
			_ = conn.Close()
			_ = b.Close()
			return err != nil
		}
	})
	return r, failed
}

// symbolsProject writes charters charters of milestones × 10 VALs under root.
func symbolsProject(root string, charters, milestones int) error {
	for i := range charters {
		p := gen.Project{CharterID: fmt.Sprintf("c%03d", i), Milestones: milestones, VALs: 10}
		if _, err := p.Write(root); err != nil {
			return err
		}
	}
	return nil
}
