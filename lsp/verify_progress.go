package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/verify"
)

// A verify run, as the editor sees it: a progress notification with a
// Cancel button ($/progress on a token made with
// window/workDoneProgress/create, when the client supports it) whose
// message is the last line printed, and the output itself as
// charter/verifyOutput notifications, sent at most every 100 ms.

// streamLimit bounds the output sent to the editor; the artifact keeps the
// end of the rest.
const streamLimit = verify.DefaultMaxOutput

// runStream sends one run's output and progress to the editor.
type runStream struct {
	s         *Server
	id        string
	criterion string
	progress  bool // the client made the token: $/progress is shown

	mu       sync.Mutex
	pending  strings.Builder
	sent     int
	capped   bool
	lastLine string
	reported string
	wake     chan struct{}
	done     chan struct{}
	flushed  chan struct{}
}

// startStream announces run id: its progress (when the client can show
// it) and the first output line, saying what runs where.
func (s *Server) startStream(ctx context.Context, id string, t *verify.Target) *runStream {
	r := &runStream{s: s, id: id, criterion: t.ID, wake: make(chan struct{}, 1), done: make(chan struct{}), flushed: make(chan struct{})}
	s.mu.Lock()
	can := s.caps.all.Window != nil && isTrue(s.caps.all.Window.WorkDoneProgress)
	s.mu.Unlock()
	if can {
		err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: protocol.String(id)})
		r.progress = err == nil
		if err != nil {
			s.log.Debug("window/workDoneProgress/create", zap.Error(err))
		}
	}
	yes := true
	r.sendProgress(struct {
		Kind        string `json:"kind"`
		Title       string `json:"title"`
		Cancellable *bool  `json:"cancellable"`
		Message     string `json:"message"`
	}{"begin", "Verify " + t.ID, &yes, t.Verification.Command})
	r.send(verify.RunOutput{Text: fmt.Sprintf("$ %s\n# %s, in %s\n", t.Verification.Command, t.ID, t.Project)})
	go r.loop()
	return r
}

// write takes a piece of output (from the runner's reading goroutine).
func (r *runStream) write(p []byte) {
	text := verify.Plain(p)
	r.mu.Lock()
	if r.sent+r.pending.Len() < streamLimit {
		r.pending.WriteString(text)
	} else if !r.capped {
		r.capped = true
		r.pending.WriteString("\n[charter-lsp: the output goes on; the artifact keeps its end]\n")
	}
	if line := verify.LastLine(text, 100); line != "" {
		r.lastLine = line
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// loop sends what was written, at most every 100 ms, until end.
func (r *runStream) loop() {
	defer close(r.flushed)
	for {
		select {
		case <-r.wake:
		case <-r.done:
			r.flush()
			return
		}
		r.flush()
		select {
		case <-time.After(100 * time.Millisecond):
		case <-r.done:
			r.flush()
			return
		}
	}
}

func (r *runStream) flush() {
	r.mu.Lock()
	text := r.pending.String()
	r.pending.Reset()
	r.sent += len(text)
	line := r.lastLine
	report := line != r.reported
	r.reported = line
	r.mu.Unlock()
	if text != "" {
		r.send(verify.RunOutput{Text: text})
	}
	if report {
		r.sendProgress(struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		}{"report", line})
	}
}

// end sends the rest of the output, then the last line and the end of
// the progress, both saying how the run ended; recorded is where it was
// recorded ("" when it was not).
func (r *runStream) end(summary, recorded string) {
	close(r.done)
	<-r.flushed
	r.send(verify.RunOutput{Text: "# " + summary + "\n", Done: true, Recorded: recorded})
	r.sendProgress(struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}{"end", summary})
}

// send sends a piece of the run's output.
func (r *runStream) send(out verify.RunOutput) {
	out.Run, out.CriterionID = r.id, r.criterion
	raw, err := json.Marshal(out)
	if err != nil {
		return
	}
	if err := r.s.conn.Notify(r.s.ctx, verify.OutputMethod, jsonrpc2.RawMessage(raw)); err != nil {
		r.s.log.Debug(verify.OutputMethod, zap.Error(err))
	}
}

func (r *runStream) sendProgress(v any) {
	if !r.progress {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	if err := r.s.client.Progress(r.s.ctx, &protocol.ProgressParams{Token: protocol.String(r.id), Value: protocol.LSPAny(raw)}); err != nil {
		r.s.log.Debug("$/progress", zap.Error(err))
	}
}
