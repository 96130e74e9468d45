package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// inOrder are the notifications handled on the read loop, one after the
// other in wire order: text synchronisation must not be reordered (the
// library's usual AsyncHandler runs everything concurrently and reorders
// rapid didChange notifications), nor a file change the client reported
// before an edit, or that edit is checked without it. They are quick and
// never wait on the client (what must, goes to inBackground). Everything
// else runs concurrently, so a handler may call the client
// (workspace/configuration, client/registerCapability) without deadlocking
// the read loop that must read the answer.
var inOrder = map[string]bool{
	protocol.MethodTextDocumentDidOpen:            true,
	protocol.MethodTextDocumentDidChange:          true,
	protocol.MethodTextDocumentDidClose:           true,
	protocol.MethodTextDocumentDidSave:            true,
	protocol.MethodWorkspaceDidChangeWatchedFiles: true,
	protocol.MethodExit:                           true,
}

// callsClient are the messages whose handler may wait for the client's
// answer to a request of ours (workspace/configuration, applyEdit,
// registerCapability). The read loop must stay free to read that answer,
// so they never hold it up: at most maxCallingClient run at once, and one
// past that is refused (a request) or dropped with a warning (a
// notification) — a client that leaves that many of our requests
// unanswered is not listening.
var callsClient = map[string]bool{
	protocol.MethodInitialized:                     true,
	protocol.MethodWorkspaceDidChangeConfiguration: true,
	protocol.MethodWorkspaceExecuteCommand:         true,
}

// Bounds on concurrent work. Everything else runs concurrently up to
// maxWork handlers, counting work a request left running past its budget;
// then the read loop waits (backpressure: the client's writes block, the
// server's memory does not grow).
const (
	maxWork          = 64
	maxCallingClient = 16
)

// DefaultRequestBudget bounds how long a request may take before the client
// gets an error answer instead of waiting on.
const DefaultRequestBudget = 10 * time.Second

// lifecycleRequest are the requests that change the session's state. Sent
// without an id they would initialize or shut the session down with nobody
// waiting for the answer (and the client's real request then refused), so
// they are dropped.
var lifecycleRequest = map[string]bool{
	protocol.MethodInitialize: true,
	protocol.MethodShutdown:   true,
}

// unbudgeted requests may legitimately wait on the editor or the user
// (workspace/applyEdit from a command) or end the session.
var unbudgeted = map[string]bool{
	protocol.MethodInitialize:              true,
	protocol.MethodShutdown:                true,
	protocol.MethodWorkspaceExecuteCommand: true,
}

// handler is the jsonrpc2 handler chain: the guard that keeps the
// connection up, cancellation, ordering, lifecycle gate, time budget, then
// the protocol package's typed dispatch to Server.
func (s *Server) handler() jsonrpc2.Handler {
	dispatch := invalidParams(s.dispatch)
	return s.survive(protocol.CancelHandler(func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		// The method borrows the read buffer, which the next message reuses
		// once the request goes async: keep our own copy.
		method, call := strings.Clone(req.Method()), req.IsCall()
		release := func() {}
		if !inOrder[method] {
			var ok bool
			if release, ok = s.admit(method); !ok {
				if call {
					return nil, jsonrpc2.Errorf(codeRequestFailed, "%s: too many requests waiting on the editor; try again", method)
				}
				s.log.Warn("notification dropped: too many waiting on the editor", zap.String("method", method))
				return nil, nil
			}
			if !call {
				// Counted before the read loop moves on, so Settle sees
				// every notification sent before it.
				s.busy.Add()
				defer s.busy.Done()
			}
			jsonrpc2.Async(ctx)
		}
		handedOff := false // release passed on with work left running
		defer func() {
			if !handedOff {
				release()
			}
		}()
		if !call && lifecycleRequest[method] {
			s.log.Warn("request sent as a notification: dropped", zap.String("method", method))
			return nil, nil
		}
		if err := s.gate(method, call); err != nil {
			return nil, err
		}
		if call && method != protocol.MethodShutdown && len(bytes.TrimSpace(req.Params())) == 0 {
			// Without this, a request without params (a custom method, say)
			// fails in the library's fallback with a JSON parse error.
			return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "%s: unknown method or missing params", method)
		}
		if call && !unbudgeted[method] {
			handedOff = true
			return s.budgeted(ctx, method, req, dispatch, release)
		}
		return dispatch(ctx, req)
	}))
}

// survive is the outermost link of the chain, so that nothing below it can
// end the connection: jsonrpc2 closes it when a notification's handler
// returns an error or panics. A notification's error is logged and
// dropped — the protocol package's cancel handler returns one for an id it
// cannot read (null, 1.5, an object, 2^70, no params) — and a panic
// becomes an InternalError answer to a request, or a log line for a
// notification.
func (s *Server) survive(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		// Our own copy: the read buffer is reused once a handler goes async.
		method, call := strings.Clone(req.Method()), req.IsCall()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("handler panicked", zap.String("method", method), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s", method)
			}
			if !call {
				if err != nil {
					s.log.Warn("notification failed", zap.String("method", method), zap.Error(err))
				}
				result, err = nil, nil
			}
		}()
		return next(ctx, req)
	}
}

// budgeted runs a request so that its answer comes within the request
// budget, or at once when the client cancels it ($/cancelRequest →
// RequestCancelled). The handler goes on in the background until it notices
// its context is done; its late result is dropped, and release is called
// when it ends (the work counts against maxWork until then). It runs on its
// own copy of the request, since the connection reclaims the original's
// buffers once we answer.
func (s *Server) budgeted(ctx context.Context, method string, req *jsonrpc2.Request, dispatch jsonrpc2.Handler, release func()) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, s.requestBudget)
	defer cancel()
	type answer struct {
		result any
		err    error
	}
	done := make(chan answer, 1)
	own := req.Clone()
	go func() {
		var a answer
		defer release()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("handler panicked", zap.String("method", method), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				a = answer{err: jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s", method)}
			}
			done <- a
		}()
		a.result, a.err = dispatch(ctx, own)
	}()
	select {
	case a := <-done:
		if ctx.Err() == nil || a.err == nil {
			return a.result, a.err
		}
		// The handler stopped because its context ended: answer for why.
	case <-ctx.Done():
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		s.log.Warn("request over budget", zap.String("method", method), zap.Duration("budget", s.requestBudget))
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s took longer than %s; try again", method, s.requestBudget)
	}
	return nil, jsonrpc2.Errorf(protocol.CodeRequestCancelled, "%s cancelled", method)
}

// admit takes a slot for a handler that runs concurrently: waiting for one
// (the read loop waits with it) unless the handler may wait on the client,
// which gets a slot of its own kind at once or not at all.
func (s *Server) admit(method string) (release func(), ok bool) {
	if callsClient[method] {
		select {
		case s.callingClient <- struct{}{}:
			return func() { <-s.callingClient }, true
		default:
			return nil, false
		}
	}
	s.work <- struct{}{}
	return func() { <-s.work }, true
}

// inBackground runs f, which may wait on the client, off the read loop for
// an in-order handler, under the same bound as a handler that calls the
// client: past it, f is dropped with a warning. A panic in f is logged.
func (s *Server) inBackground(what string, f func(ctx context.Context)) {
	select {
	case s.callingClient <- struct{}{}:
	default:
		s.log.Warn("dropped: too many waiting on the editor", zap.String("what", what))
		return
	}
	s.busy.Add()
	go func() {
		defer s.busy.Done()
		defer func() { <-s.callingClient }()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panicked", zap.String("what", what), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
			}
		}()
		f(s.ctx)
	}()
}

// invalidParams reports params that do not decode as InvalidParams: the
// protocol package calls them a ParseError, but the message itself parsed
// (tolerantStream answers frames that do not).
func invalidParams(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		res, err := next(ctx, req)
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc2.ParseError {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, rpcErr.Message)
		}
		return res, err
	}
}

// gate enforces the lifecycle: nothing but initialize before it, nothing
// but exit after shutdown.
func (s *Server) gate(method string, call bool) error {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == protocol.MethodExit:
		return nil
	case state == stateNew && method != protocol.MethodInitialize:
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize", method)
	case state == stateShutdown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown", method)
	case state != stateNew && method == protocol.MethodInitialize:
		return fmt.Errorf("initialize sent twice: %w", jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "already initialized"))
	}
	return nil
}
