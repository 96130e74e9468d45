package lsp

import (
	"context"

	"go.uber.org/zap"
)

// refreshViews asks the editor to ask again for its code lenses and inlay
// hints, when it supports those refresh requests: a change on disk (a test
// that cites a VAL renamed, evidence recorded) changes what they say over
// an open document whose own text did not change. It does not wait for the
// editor.
func (s *Server) refreshViews() {
	s.mu.Lock()
	w := s.caps.all.Workspace
	s.mu.Unlock()
	if s.client == nil || s.ctx == nil || w == nil {
		return
	}
	lens := w.CodeLens != nil && isTrue(w.CodeLens.RefreshSupport)
	inlay := w.InlayHint != nil && isTrue(w.InlayHint.RefreshSupport)
	if !lens && !inlay {
		return
	}
	s.busy.Add()
	go func() {
		defer s.busy.Done()
		ctx := context.WithoutCancel(s.ctx)
		if lens {
			if err := s.client.CodeLensRefresh(ctx); err != nil {
				s.log.Debug("code lens refresh", zap.Error(err))
			}
		}
		if inlay {
			if err := s.client.InlayHintRefresh(ctx); err != nil {
				s.log.Debug("inlay hint refresh", zap.Error(err))
			}
		}
	}()
}
