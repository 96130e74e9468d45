package lsp

import (
	"fmt"
	"time"

	"go.uber.org/zap"
)

// scanDelay is how long the scan waits after the client is initialized,
// for the documents it opens first.
const scanDelay = 500 * time.Millisecond

// scanWorkspace reads the workspace's charters in the background once the
// server starts, under a progress report: the walk of the workspace folders
// and each pi charter's register (workspace.Snapshot.Symbols), so that
// workspace/symbol answers from memory. The documents come first: it
// starts once their diagnostics are out, and reads on all processors but
// one, leaving one to the document being edited.
func (s *Server) scanWorkspace() {
	ctx := s.ctx
	select {
	case <-ctx.Done():
		return
	case <-time.After(scanDelay):
	}
	s.diags.pending.Wait()
	if ctx.Err() != nil {
		return
	}
	start := time.Now()
	p := s.beginProgress(ctx, "charter-lsp/scan", "Reading charters", "listing the workspace folders…")
	charters, err := s.ws.Snapshot().Symbols(ctx, func(done, total int) {
		p.report(fmt.Sprintf("%d/%d pi charters", done, total), uint32(done*100/max(total, 1)))
	})
	if err != nil {
		p.end("stopped")
		if ctx.Err() == nil {
			s.log.Warn("reading the workspace's charters", zap.Error(err))
		}
		return
	}
	n := 0
	for _, syms := range charters {
		n += len(syms)
	}
	p.end(fmt.Sprintf("%d pi charters, %d VALs", len(charters), n))
	s.log.Debug("workspace read", zap.Int("charters", len(charters)), zap.Int("vals", n), zap.Duration("took", time.Since(start)))
}
