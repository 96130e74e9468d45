package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// Initialized pulls the editor's settings, registers the file watchers and
// checks whatever the client opened in the meantime.
func (s *Server) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	s.fetchEditorConfig(ctx)
	s.mu.Lock()
	configDynamic := s.caps.configDynamic
	s.mu.Unlock()
	if configDynamic {
		// Some clients only send didChangeConfiguration once registered.
		err := s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID: "charter-configuration", Method: protocol.MethodWorkspaceDidChangeConfiguration,
		}}})
		if err != nil {
			s.log.Warn("registering didChangeConfiguration", zap.Error(err))
		}
	}
	st := s.settings()
	s.diags.schedule(s.update(workspace.Change{Settings: &st}), "")
	s.updateWatchers(ctx)
	if s.ctx != nil && !s.noScan {
		go s.scanWorkspace()
	}
	return nil
}

// watchGlobs are the files whose change on disk can change a diagnostic:
// every pi-charter file (evidence, criterion-state.json, …), rp1 charters,
// the project configuration, the freshness source folders, and with git
// freshness the index, which a commit, an add or a checkout rewrites.
func watchGlobs(cfg analysis.Config) []string {
	globs := []string{"**/.pi/charters/**", "**/.charters/**", "**/charter.md", "**/.charter-lsp.json*"}
	for _, dir := range cfg.Sources() {
		globs = append(globs, "**/"+filepath.ToSlash(filepath.Clean(dir))+"/**")
	}
	globs = append(globs, ids.TestGlobs()...) // the tests that cite VALs (references, the cited-in lens)
	if cfg.FreshnessMode() == pi.FreshnessGit {
		globs = append(globs, "**/.git/index")
	}
	return globs
}

// watchRegistration is the current didChangeWatchedFiles registration.
type watchRegistration struct {
	id    string
	globs []string
	seq   int
}

// updateWatchers (re)registers workspace/didChangeWatchedFiles when the
// client supports dynamic registration; the source folders come from the
// configuration, so a configuration change replaces the registration.
func (s *Server) updateWatchers(ctx context.Context) {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	s.mu.Lock()
	supported := s.caps.watchDynamic
	old := s.watch
	s.mu.Unlock()
	if !supported {
		return
	}
	globs := watchGlobs(s.Config())
	if old.id != "" && slices.Equal(globs, old.globs) {
		return
	}
	watchers := make([]protocol.FileSystemWatcher, 0, len(globs))
	for _, g := range globs {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: protocol.Pattern(g)})
	}
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers})
	if err != nil {
		s.log.Error("encoding file watchers", zap.Error(err))
		return
	}
	if old.id != "" {
		unreg := []protocol.Unregistration{{ID: old.id, Method: protocol.MethodWorkspaceDidChangeWatchedFiles}}
		if err := s.client.UnregisterCapability(ctx, &protocol.UnregistrationParams{Unregisterations: unreg}); err != nil {
			s.log.Warn("unregistering file watchers", zap.Error(err))
		}
	}
	s.mu.Lock()
	s.watch.seq++
	id := fmt.Sprintf("charter-watch-%d", s.watch.seq)
	s.mu.Unlock()
	err = s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: id, Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
	}}})
	if err != nil {
		s.log.Warn("registering file watchers", zap.Error(err))
		return
	}
	s.mu.Lock()
	s.watch.id, s.watch.globs = id, globs
	s.mu.Unlock()
	s.log.Debug("watching files", zap.Strings("globs", globs))
}
