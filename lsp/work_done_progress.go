package lsp

import (
	"context"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// cancellable is the work under way that shows a progress the user can
// cancel in the editor (an interview agent's step, a verify run), by its
// progress token: the one registry window/workDoneProgress/cancel reads.
type cancellable struct {
	mu     sync.Mutex
	n      int
	cancel map[string]context.CancelFunc
}

// add registers cancel under a new token named after what the work is
// ("charter-verify", "charter-lsp/interview-agent") and returns the token.
func (r *cancellable) add(kind string, cancel context.CancelFunc) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	token := fmt.Sprintf("%s-%d", kind, r.n)
	if r.cancel == nil {
		r.cancel = map[string]context.CancelFunc{}
	}
	r.cancel[token] = cancel
	return token
}

func (r *cancellable) remove(token string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.cancel, token)
}

func (r *cancellable) stop(token string) bool {
	r.mu.Lock()
	cancel := r.cancel[token]
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return cancel != nil
}

// WorkDoneProgressCancel stops the work whose progress the user cancelled
// in the editor.
func (s *Server) WorkDoneProgressCancel(_ context.Context, params *protocol.WorkDoneProgressCancelParams) error {
	var token string
	switch t := params.Token.(type) {
	case protocol.String:
		token = string(t)
	case protocol.Integer:
		token = fmt.Sprint(int32(t))
	}
	if s.running.stop(token) {
		s.log.Info("cancelled from the editor", zap.String("token", token))
	}
	return nil
}
