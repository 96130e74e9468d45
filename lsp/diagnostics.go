package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// diagnoser publishes each snapshot's diagnostics, as gopls does: a new
// snapshot cancels the run of the previous one (its work stops, down in the
// workspace's computations), waits for the debounce delay, then checks the
// open charter documents — the edited one first — and publishes each with
// the document's version, unless the document moved on or the client
// already has exactly these diagnostics (for a client that reads the
// version: for this version, see publish). No lock is held while writing to
// the client: a slow client holds up only that document's next publish.
type diagnoser struct {
	s *Server

	mu        sync.Mutex // guards cancel, scheduled and docs
	cancel    context.CancelFunc
	scheduled uint64 // snapshot of the run last scheduled
	docs      map[uri.URI]*docDiags

	pending    *inflight.Counter // runs and clears not yet finished
	refreshing atomic.Bool       // a workspace/diagnostic/refresh is in flight
}

// docDiags is one open document's publishing state.
type docDiags struct {
	send sync.Mutex // held while publishing this document: keeps publishes in order

	mu       sync.Mutex  // guards the fields below; never held while sending
	snapID   uint64      // snapshot of the last publish
	resultID string      // id of what the client has
	version  int32       // the document version the last publish carried
	pulled   string      // result id a pull client last received
	last     *diagResult // the last result computed, reused while its diagnostics are unchanged

	// wire is the JSON of the last diagnostics, reused by the next
	// (diagnostics_wire.go). It is used under send only: a frame it gives
	// out is reused by the encode after next, by which time the publish
	// that wrote it has returned.
	wire  wireCache
	frame []byte // a frame for a result without room to frame it in place, reused; guarded by send
}

// diagResult is one computed set of diagnostics.
type diagResult struct {
	from     []diag.Diagnostic // what it was encoded from
	frame    []byte            // the JSON array sent is frame[at:], with room around it (wireCache.encode)
	at       int
	resultID string // equal ids mean equal JSON

	itemsOnce sync.Once
	items     []protocol.Diagnostic // decoded on demand (pull diagnostics)
}

// protocolItems are the diagnostics as protocol values.
func (r *diagResult) protocolItems() []protocol.Diagnostic {
	r.itemsOnce.Do(func() { r.items = toProtocolDiagnostics(r.from) })
	return r.items
}

// noDiagnostics is the result of a document that is not analysed.
var noDiagnostics = &diagResult{frame: emptyWire, resultID: emptyWireID, items: []protocol.Diagnostic{}}

func newDiagnoser(s *Server) *diagnoser {
	return &diagnoser{s: s, docs: map[uri.URI]*docDiags{}, pending: inflight.New()}
}

func (g *diagnoser) doc(u uri.URI) *docDiags {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.docs[u]
	if d == nil {
		d = &docDiags{}
		g.docs[u] = d
	}
	return d
}

// debounce is the configured delay before a check.
func (g *diagnoser) debounce(snap *workspace.Snapshot) time.Duration {
	ms := analysis.DefaultDebounceMs
	if cfg := snap.Settings().Config; cfg.DebounceMs != nil {
		ms = *cfg.DebounceMs
	}
	return time.Duration(ms) * time.Millisecond
}

// schedule checks snap's open charter documents after the debounce delay,
// first (the edited document) first, cancelling the run of any earlier
// snapshot. A pull client asks for the document it edits itself, so that
// one is not pushed; the others are re-checked so that a change they see
// makes the client pull again.
func (g *diagnoser) schedule(snap *workspace.Snapshot, first string) {
	if g.s.ctx == nil {
		return // not serving
	}
	g.mu.Lock()
	if snap.ID() < g.scheduled {
		// A change made in the background (a look at the disk) lost the
		// race with a later one: the newer snapshot's run must not stop.
		g.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(g.s.ctx)
	if g.cancel != nil {
		g.cancel()
	}
	g.cancel, g.scheduled = cancel, snap.ID()
	g.pending.Add()
	g.mu.Unlock()

	delay := g.debounce(snap)
	go func() {
		defer g.pending.Done()
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
		pull := g.caps().pullDiagnostics
		for _, f := range orderFirst(snap.Documents(), first) {
			if ctx.Err() != nil {
				return
			}
			if pull && f.Path == first {
				continue
			}
			stop := g.preview(ctx, snap, f)
			ds, err := g.check(ctx, snap, f)
			stop()
			if err != nil {
				if ctx.Err() == nil {
					g.s.log.Warn("check failed", zap.String("file", f.Path), zap.Error(err))
				}
				continue
			}
			if g.publish(snap, f, ds) && f.Path == first {
				// The edited document's diagnostics are out (the client reads
				// a large publish for milliseconds): its next keystroke's
				// text is made meanwhile, on a core that is otherwise idle.
				// A version already left behind gets none: no edit applies
				// to it.
				f.PrepareEdit()
			}
		}
	}()
}

// preview publishes f's diagnostics checked with the runs criterion-state
// names, when f is the register of a charter with a long history whose
// runs are not read yet (workspace.Snapshot.Preview), and reports how many
// are read while they are; the returned func ends the report once the
// full answer is computed.
func (g *diagnoser) preview(ctx context.Context, snap *workspace.Snapshot, f *workspace.File) (stop func()) {
	ds, ok, err := snap.Preview(ctx, f.Path)
	if err != nil || !ok {
		return func() {}
	}
	g.publish(snap, f, ds)
	dir := analysis.PiCharterDir(f.Path)
	p := g.s.beginProgress(ctx, "charter-lsp/evidence", "Reading evidence", filepath.Base(dir)+": reading its runs…")
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-time.After(reportEvery):
			}
			if runs, total, loading := snap.Loading(dir); loading && total > 0 {
				p.report(fmt.Sprintf("%s: %d/%d runs", filepath.Base(dir), runs, total), uint32(runs*100/total))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		p.end(filepath.Base(dir) + ": every run read")
	}
}

// orderFirst puts the file at path first.
func orderFirst(files []*workspace.File, path string) []*workspace.File {
	for i, f := range files {
		if f.Path == path && i > 0 {
			files[0], files[i] = files[i], files[0]
			break
		}
	}
	return files
}

// check returns the diagnostics of one file of snap (none for a file that
// is not a charter).
func (g *diagnoser) check(ctx context.Context, snap *workspace.Snapshot, f *workspace.File) ([]diag.Diagnostic, error) {
	if !isCharter(f) {
		return nil, nil
	}
	return snap.Diagnostics(ctx, f.Path)
}

// compute checks one file of snap and encodes its diagnostics.
func (g *diagnoser) compute(ctx context.Context, snap *workspace.Snapshot, f *workspace.File) (*diagResult, error) {
	ds, err := g.check(ctx, snap, f)
	if err != nil {
		return nil, err
	}
	u := g.s.docs.uri(f.Path)
	dd := g.doc(u)
	dd.send.Lock()
	defer dd.send.Unlock()
	return g.encode(dd, u, f, ds), nil
}

// encode is ds, f's diagnostics, encoded for publishing (reusing the last
// result's encoding when they are the same). dd is f's, u its URI; the
// caller holds dd.send.
func (g *diagnoser) encode(dd *docDiags, u uri.URI, f *workspace.File, ds []diag.Diagnostic) *diagResult {
	if !isCharter(f) {
		return noDiagnostics
	}
	dd.mu.Lock()
	last := dd.last
	dd.mu.Unlock()
	if last != nil && sameDiagnostics(last.from, ds) {
		return last // carried over from an earlier snapshot: already encoded
	}
	res := &diagResult{from: ds, at: publishHeadroom(u)}
	res.frame, res.resultID = dd.wire.encode(ds, res.at)
	dd.mu.Lock()
	dd.last = res
	dd.mu.Unlock()
	return res
}

// sameDiagnostics reports whether a and b are the same slice (a snapshot
// carries a file's diagnostics over unchanged).
func sameDiagnostics(a, b []diag.Diagnostic) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// isCharter reports whether the server analyses the file at all.
func isCharter(f *workspace.File) bool { return f.Kind() != analysis.KindNone }

// publish encodes ds, f's diagnostics in snap, and sends them unless a
// newer snapshot's publish went out, the document moved on or closed, or
// the client already has exactly these diagnostics. It reports whether f
// is still the document's current version (false: nothing was encoded).
//
// A client that reads the version (versionSupport) drops a publish for a
// version it has already left, and a publish may cross the client's next
// edit on the wire: one sent for version 1 while didChange 2 is on its way
// is dropped on arrival. The server cannot tell that crossing from a
// publish that arrived in time, so such a client holds a publish only for
// the version it carried: the first result for a new version goes out even
// when it equals the last one. Re-checks of the same version (another
// document edited, a file changed on disk) still send nothing new.
func (g *diagnoser) publish(snap *workspace.Snapshot, f *workspace.File, ds []diag.Diagnostic) (current bool) {
	u := g.s.docs.uri(f.Path)
	dd := g.doc(u)
	dd.send.Lock()
	defer dd.send.Unlock()
	cur := g.s.ws.Snapshot().File(f.Path)
	dd.mu.Lock()
	stale := snap.ID() < dd.snapID || !cur.Open() || cur.Version != f.Version
	dd.mu.Unlock()
	if stale {
		return false // not even encoded
	}
	res := g.encode(dd, u, f, ds)
	caps := g.caps()
	dd.mu.Lock()
	if dd.resultID == res.resultID && (dd.version == f.Version || !caps.diagnosticsVersion) || dd.resultID == "" && !isCharter(f) {
		// The client has these already, or never had any (a document that
		// is not a charter file is never published to).
		dd.snapID = snap.ID()
		dd.mu.Unlock()
		return true
	}
	dd.snapID, dd.resultID, dd.version = snap.ID(), res.resultID, f.Version
	pulled := dd.pulled
	dd.mu.Unlock()
	if caps.pullDiagnostics {
		// A pull client asks for diagnostics itself (after its own edits);
		// pushing too would show each one twice. When a re-check finds
		// something the client has not pulled (another file changed), ask
		// it to pull again.
		if caps.diagnosticRefresh && pulled != res.resultID {
			g.refresh()
		}
		return true
	}
	version := f.Version
	dd.frame = g.notify(u, &version, res.frame, res.at, dd.frame)
	return true
}

// caps are the client's capabilities.
func (g *diagnoser) caps() clientCaps {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return g.s.caps
}

// served records the result id a pull request returned.
func (g *diagnoser) served(u uri.URI, resultID string) {
	dd := g.doc(u)
	dd.mu.Lock()
	defer dd.mu.Unlock()
	dd.pulled = resultID
}

// refresh sends workspace/diagnostic/refresh, one at a time: the client
// answers it by pulling.
func (g *diagnoser) refresh() {
	if g.s.client == nil || !g.refreshing.CompareAndSwap(false, true) {
		return
	}
	g.pending.Add()
	go func() {
		defer g.pending.Done()
		defer g.refreshing.Store(false)
		if err := g.s.client.DiagnosticRefresh(context.WithoutCancel(g.s.ctx)); err != nil {
			g.s.log.Debug("diagnostic refresh", zap.Error(err))
		}
	}()
}

// clear publishes an empty list for a closed document, as the client
// expects, and forgets the document. It does not wait for the client.
func (g *diagnoser) clear(u uri.URI, charter bool) {
	if g.s.ctx == nil {
		return
	}
	dd := g.doc(u)
	dd.mu.Lock()
	published := dd.resultID != ""
	dd.mu.Unlock()
	if !charter && !published {
		g.mu.Lock()
		delete(g.docs, u)
		g.mu.Unlock()
		return
	}
	g.pending.Add()
	go func() {
		defer g.pending.Done()
		dd.send.Lock()
		defer dd.send.Unlock()
		g.notify(u, nil, emptyWire, 0, nil)
		dd.wire.forget()
		g.mu.Lock()
		if g.docs[u] == dd {
			delete(g.docs, u)
		}
		g.mu.Unlock()
	}()
}

// notify sends textDocument/publishDiagnostics with frame[at:], the
// encoded diagnostics array, as its diagnostics. The message is framed
// around the array in place when the frame has room for it (what
// wireCache.encode leaves), and written at once: the array is not copied.
// A frame without room (an empty array) is copied into buf first; the
// buf returned may be passed again once this returns.
func (g *diagnoser) notify(u uri.URI, version *int32, frame []byte, at int, buf []byte) []byte {
	st := g.s.transport.Load()
	if st == nil {
		return buf
	}
	var scratch [256]byte
	head := appendPublishHead(scratch[:0], u, version)
	if at < frameHeaderRoom+len(head) || cap(frame)-len(frame) < len(publishTail) {
		room := frameHeaderRoom + len(head)
		buf = slices.Grow(buf[:0], room+len(frame)-at+len(publishTail))[:room]
		buf = append(buf, frame[at:]...)
		frame, at = buf, room
	}
	start := at - len(head)
	copy(frame[start:at], head)
	err := st.writeFrame(frame[:len(frame)+copy(frame[len(frame):cap(frame)], publishTail)], start)
	if err != nil && !errors.Is(err, context.Canceled) {
		g.s.log.Warn("publishing diagnostics", zap.String("uri", string(u)), zap.Error(err))
	}
	return buf
}

// cancelAll stops the run in progress (on shutdown).
func (g *diagnoser) cancelAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancel != nil {
		g.cancel()
	}
}

// settle blocks until every scheduled run has published or given up.
func (g *diagnoser) settle() { g.pending.Wait() }

// wait cancels every run and blocks until they have all stopped.
func (g *diagnoser) wait() {
	g.cancelAll()
	g.settle()
}
