package lsp

import (
	"context"
)

// Shutdown stops background work; the process exits on the exit
// notification that follows (see Serve).
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	s.didShutdown = true
	s.mu.Unlock()
	s.diags.cancelAll()
	s.log.Info("shutdown")
	return nil
}

// Exit only signals Serve: closing the connection here would wait for the
// in-flight handlers, this one included.
func (s *Server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}
