package lsp

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// progress is a report of work in the background the editor shows, when
// it can (window/workDoneProgress/create, then $/progress begin, reports
// and end); without the capability nothing is sent. Reports are sent at
// most every reportEvery, the last one always.
type progress struct {
	s     *Server
	ctx   context.Context
	token protocol.ProgressToken
	shown bool

	mu   sync.Mutex
	last time.Time
}

const reportEvery = 200 * time.Millisecond

// beginProgress starts a report titled title with message.
func (s *Server) beginProgress(ctx context.Context, kind, title, message string) *progress {
	p := &progress{s: s, ctx: context.WithoutCancel(ctx)}
	s.mu.Lock()
	can := s.caps.all.Window != nil && isTrue(s.caps.all.Window.WorkDoneProgress)
	s.mu.Unlock()
	if !can || s.client == nil {
		return p
	}
	p.token = protocol.String(s.running.add(kind, func() {}))
	if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: p.token}); err != nil {
		s.log.Debug("window/workDoneProgress/create", zap.Error(err))
		s.running.remove(string(p.token.(protocol.String)))
		return p
	}
	p.shown = true
	p.send(protocol.WorkDoneProgressBegin{Kind: "begin", Title: title, Message: &message})
	return p
}

// report says how far the work is; percentage is of it all.
func (p *progress) report(message string, percentage uint32) {
	if !p.shown {
		return
	}
	p.mu.Lock()
	now := time.Now()
	due := now.Sub(p.last) >= reportEvery
	if due {
		p.last = now
	}
	p.mu.Unlock()
	if due {
		p.send(protocol.WorkDoneProgressReport{Kind: "report", Message: &message, Percentage: &percentage})
	}
}

// end ends the report with message.
func (p *progress) end(message string) {
	if !p.shown {
		return
	}
	p.send(protocol.WorkDoneProgressEnd{Kind: "end", Message: &message})
	p.s.running.remove(string(p.token.(protocol.String)))
}

func (p *progress) send(v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	if err := p.s.client.Progress(p.ctx, &protocol.ProgressParams{Token: p.token, Value: protocol.LSPAny(raw)}); err != nil {
		p.s.log.Debug("$/progress", zap.Error(err))
	}
}
