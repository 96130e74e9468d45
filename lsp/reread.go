package lsp

import (
	"time"

	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// rereadAfter makes a snapshot after delay, when a reading of a project's
// git history ran out of time (a busy moment; workspace/clock.go keeps it
// until then): that snapshot reads the history again, and the open
// documents are checked again and published if what they say changed — a
// freshness-unknown that a later reading can judge goes away by itself.
func (s *Server) rereadAfter(delay time.Duration) {
	time.AfterFunc(delay, func() {
		if s.ctx == nil || s.ctx.Err() != nil {
			return // not serving, or no longer
		}
		s.log.Debug("reading the git history again", zap.Duration("after", delay))
		s.diags.schedule(s.update(workspace.Change{}), "")
		s.refreshViews()
	})
}
