// Package lsp is the language server: it translates between the Language
// Server Protocol and the packages that hold the logic. Each LSP method lives
// in its own file (initialize.go, did_change.go, hover.go, …). A handler takes
// the current workspace.Snapshot and the file it asks about, switches on the
// file's kind to its family's feature (rp1, pi, charterfile: each answers
// from its model memoized on the snapshot, as analysis/feature values), and
// converts the answer (protocol_convert.go). Text synchronisation, file
// events and settings make new snapshots (documents.go); diagnostics.go
// publishes each snapshot's diagnostics.
package lsp

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
	"github.com/charter-lsp/charter-lsp/interview/agent"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// Options configure a Server. The zero value is a working server.
type Options struct {
	Logger  *zap.Logger // default: no logging
	Disk    vfs.FS      // the file system under the open documents; default vfs.OS
	Version string      // reported in serverInfo
	// RequestBudget bounds the time to answer a request (default
	// DefaultRequestBudget); past it the client gets RequestFailed.
	RequestBudget time.Duration
	// RevalidateEvery is, for a client that cannot watch files, the least
	// time between two comparisons of what was read with the disk (default
	// two seconds).
	RevalidateEvery time.Duration
	// Agent is the interview agent the user named where the server was
	// started (CHARTER_LSP_AGENT); initializationOptions may name another.
	Agent agent.Config
	// GitLimits, when set, bounds each reading of a project's git history
	// (default gitlog's: 5 s, 100,000 commits, 1 GB).
	GitLimits func() gitlog.Limits
	// NoScan leaves the workspace's charters unread until a request asks
	// (scan.go); a benchmark of one request's cost sets it.
	NoScan bool
}

// Server is one language-server session over one connection.
type Server struct {
	protocol.UnimplementedServer

	log     *zap.Logger
	version string

	// ws is the sequence of snapshots; docs maps open documents' URIs to
	// paths and back.
	ws   *workspace.Session
	docs *docTable
	// bound is the disk as the workspace reads it: the workspace folders
	// only, whatever path a feature asks for.
	bound *vfs.Confined
	diags *diagnoser
	busy  *inflight.Counter // notification handlers running concurrently

	requestBudget time.Duration
	dispatch      jsonrpc2.Handler       // typed dispatch to s; tests may wrap it
	transport     atomic.Pointer[stream] // the connection's, once Serve runs
	work          chan struct{}          // a slot per concurrent handler (handler.go)
	callingClient chan struct{}          // a slot per handler that may wait on the client
	running       cancellable            // work the editor can cancel by its progress token (work_done_progress.go)

	// ctx lives as long as the connection; background work (debounced
	// diagnostics) runs under it. client calls back into the editor; conn
	// is its connection, for messages sent pre-encoded (diagnostics).
	ctx    context.Context
	client protocol.Client
	conn   jsonrpc2.Conn

	mu          sync.Mutex // guards the fields below
	state       lifecycle
	caps        clientCaps
	config      configLayers
	lastReset   time.Time // when the disk was last revalidated (clients that cannot watch files)
	watch       watchRegistration
	watchMu     sync.Mutex // serialises updateWatchers' client calls
	exitOnce    sync.Once
	exited      chan struct{}
	didShutdown bool

	// revalidating is set while a look at the disk is under way (clients
	// that cannot watch files); revalidateEvery is the least time between
	// two. Guarded by mu.
	revalidating    bool
	revalidateEvery time.Duration
	noScan          bool // Options.NoScan

	// agent is the interview agent from Options. Guarded by mu.
	agent agent.Config
}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// New returns a server ready to Serve one connection.
func New(opts Options) *Server {
	s := &Server{
		log:           opts.Logger,
		version:       opts.Version,
		docs:          newDocTable(),
		exited:        make(chan struct{}),
		busy:          inflight.New(),
		work:          make(chan struct{}, maxWork),
		callingClient: make(chan struct{}, maxCallingClient),

		revalidateEvery: 2 * time.Second,
		agent:           opts.Agent,
	}
	if s.log == nil {
		s.log = zap.NewNop()
	}
	if s.version == "" {
		s.version = "dev"
	}
	s.requestBudget = opts.RequestBudget
	if s.requestBudget <= 0 {
		s.requestBudget = DefaultRequestBudget
	}
	s.noScan = opts.NoScan
	if opts.RevalidateEvery > 0 {
		s.revalidateEvery = opts.RevalidateEvery
	}
	s.dispatch = protocol.ServerHandler(s, nil)
	disk := opts.Disk
	if disk == nil {
		disk = vfs.OS
	}
	s.bound = &vfs.Confined{FS: disk, Roots: s.Roots}
	s.ws = workspace.NewSession(workspace.Options{Disk: s.bound, GitLimits: opts.GitLimits, Reread: s.rereadAfter})
	s.diags = newDiagnoser(s)
	return s
}

// Serve speaks LSP over conn (stdin and stdout for an editor) until the
// client sends exit or the connection ends, and returns the process exit
// code: 0 after a shutdown request, 1 otherwise (as the LSP specification
// asks). The framing is bounded (stream.go): no frame, header or backlog of
// unanswered requests can grow memory without limit.
func (s *Server) Serve(ctx context.Context, conn io.ReadWriteCloser) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The protocol library logs through slog; route it to our zap logger.
	ctx = protocol.WithLogger(ctx, slog.New(zapslog.NewHandler(s.log.Core())))

	st := newStream(conn, s.log)
	s.transport.Store(st)
	rpc := jsonrpc2.NewConn(st, jsonrpc2.WithCodec(Codec{}))
	s.client, s.conn = protocol.ClientDispatcher(rpc), rpc
	s.ctx = protocol.WithClient(ctx, s.client)
	rpc.Go(s.ctx, s.handler())

	select {
	case <-s.exited:
	case <-rpc.Done():
	case <-ctx.Done():
	}
	// Stop background work and outstanding calls to the client, then close
	// the connection. Close waits for the read loop, which a blocking read
	// on stdin does not leave until the client closes its end: give it a
	// moment to flush replies, then let the process exit regardless.
	cancel()
	s.diags.wait()
	closed := make(chan struct{})
	go func() {
		if err := rpc.Close(); err != nil {
			s.log.Debug("closing the connection", zap.Error(err))
		}
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(200 * time.Millisecond):
		s.log.Debug("not waiting for the connection to close")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.didShutdown {
		return 0
	}
	return 1
}

// Codec marshals payloads with the protocol package's union-aware encoder,
// as protocol.NewServer does (its codec is unexported; we build the
// connection ourselves to install our own handler chain). The test client
// uses it too.
type Codec struct{}

func (Codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

// Unmarshal decodes from a copy it owns: the protocol decoders alias
// strings into the buffer they decode, and the connection reuses its read
// buffers, so a kept string (a document's text, a command name) would
// otherwise change under us (go-lsp-dev notes, pitfall 7). One copy per
// message makes every decoded value safe to keep.
func (Codec) Unmarshal(data []byte, v any) error {
	owned := bytes.Clone(data)
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = owned
		return nil
	}
	return protocol.Unmarshal(owned, v)
}

// Checks is how many file checks the server has run
// (workspace.Session.Checks): the benchmarks report it per edit, tests see
// with it which changes check which files again.
func (s *Server) Checks() int64 { return s.ws.Checks() }

// Settle blocks until the notifications received so far are handled and
// every diagnostics run they scheduled has published (or found nothing new
// to publish). Tests and benchmarks use it to observe the server at rest
// without sleeping.
func (s *Server) Settle() {
	s.busy.Wait()
	s.diags.settle()
	s.ws.Wait()
}
