package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// configSection is the workspace/configuration section the server reads.
const configSection = "charter"

// configLayers are the user's settings, lowest precedence first: a project
// file (read per file by the snapshot) < initializationOptions < the
// editor's settings, key by key.
type configLayers struct {
	init       analysis.Config
	editor     analysis.Config
	restricted bool            // VS Code's Restricted Mode: the workspace is not trusted
	announced  map[string]bool // project keys Restricted Mode ignored, said once each
	agent      agentSetting    // the interview agent, from initializationOptions only
}

// settings are the user's settings as the workspace takes them.
func (s *Server) settings() workspace.Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return workspace.Settings{Config: s.config.init.Merge(s.config.editor), Restricted: s.config.restricted}
}

// Config is the effective configuration at the first workspace folder:
// the project file there, overridden by the user's settings.
func (s *Server) Config() analysis.Config {
	snap := s.ws.Snapshot()
	dir := ""
	if roots := snap.Roots(); len(roots) > 0 {
		dir = roots[0]
	}
	cfg, _ := snap.Config(filepath.Join(dir, "charter.md"))
	return cfg
}

// update makes the next snapshot. A client that cannot watch files never
// says when the disk changed: then, at most every two seconds, a change
// starts a look at the disk in the background (revalidate).
func (s *Server) update(c workspace.Change) *workspace.Snapshot {
	s.mu.Lock()
	look := !s.caps.watchDynamic && !s.revalidating && time.Since(s.lastReset) > s.revalidateEvery
	if look {
		s.revalidating, s.lastReset = true, time.Now()
	}
	s.mu.Unlock()
	if c.Roots != nil || len(c.Disk) > 0 || c.DiskUnknown {
		s.bound.Forget() // the folders changed, or a folder may have become a link
	}
	snap := s.ws.Update(c)
	if c.Settings != nil || c.Roots != nil || len(c.Disk) > 0 {
		s.announceIgnored(snap, nil)
	}
	if look {
		s.revalidate()
	}
	return snap
}

// announceIgnored says once (log and window/showMessage) which keys of a
// project file Restricted Mode left out, for the open documents (or just
// paths).
func (s *Server) announceIgnored(snap *workspace.Snapshot, paths []string) {
	if !snap.Settings().Restricted {
		return
	}
	if paths == nil {
		for _, r := range snap.Roots() {
			paths = append(paths, filepath.Join(r, "charter.md")) // the workspace's own project file
		}
		for _, f := range snap.Documents() {
			paths = append(paths, f.Path)
		}
	}
	for _, p := range paths {
		file, keys := snap.IgnoredProjectKeys(p)
		if len(keys) == 0 {
			continue
		}
		key := file + "\x00" + strings.Join(keys, ",")
		s.mu.Lock()
		said := s.config.announced[key]
		if s.config.announced == nil {
			s.config.announced = map[string]bool{}
		}
		s.config.announced[key] = true
		s.mu.Unlock()
		if said {
			continue
		}
		s.log.Info("Restricted Mode: project settings ignored", zap.String("file", file), zap.Strings("keys", keys))
		s.show(s.ctx, protocol.MessageTypeInfo, fmt.Sprintf(
			"charter-lsp: this workspace is not trusted, so %s in %s are not applied (trust the workspace to use them, or set them in your user settings).",
			strings.Join(keys, ", "), filepath.Base(file)))
	}
}

// revalidate compares what the workspace has read with the disk (a stat
// per file, nothing read) and, when something changed, makes a snapshot
// with those paths changed and checks the open documents again. The change
// that started it is not held up: with a hundred thousand evidence runs
// the look takes a while, and forgetting the disk instead (as this server
// once did) made such a keystroke reload them all, for seconds.
func (s *Server) revalidate() {
	if s.ctx == nil {
		s.mu.Lock()
		s.revalidating = false
		s.mu.Unlock()
		return
	}
	s.diags.pending.Add()
	go func() {
		defer s.diags.pending.Done()
		paths, err := s.ws.Revalidate(s.ctx)
		s.mu.Lock()
		s.revalidating = false
		s.mu.Unlock()
		if err != nil || len(paths) == 0 {
			return
		}
		s.log.Debug("changed on disk", zap.Int("paths", len(paths)))
		s.diags.schedule(s.update(workspace.Change{Disk: paths}), "")
	}()
}

// decodeSettings reads editor-supplied settings, warning the user about
// values it clamped or left out (never dropping the rest).
func (s *Server) decodeSettings(ctx context.Context, from string, raw []byte) analysis.Config {
	cfg, warnings := analysis.DecodeSettings(raw)
	if len(warnings) > 0 {
		msg := "charter-lsp: " + from + ": " + strings.Join(warnings, "; ")
		s.log.Warn("settings adjusted", zap.String("from", from), zap.Strings("warnings", warnings))
		s.show(ctx, protocol.MessageTypeWarning, msg)
	}
	return cfg
}

// restrictedOption reads {"restricted": true} from initializationOptions or
// the settings (the VS Code extension sends it in Restricted Mode).
func restrictedOption(raw []byte) (value, present bool) {
	var v struct {
		Restricted *bool `json:"restricted"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Restricted == nil {
		return false, false
	}
	return *v.Restricted, true
}

// fetchEditorConfig pulls section "charter" with workspace/configuration
// when the client supports it.
func (s *Server) fetchEditorConfig(ctx context.Context) {
	s.mu.Lock()
	supported := s.caps.configuration
	s.mu.Unlock()
	if !supported {
		return
	}
	section := configSection
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{
		Items: []protocol.ConfigurationItem{{Section: &section}},
	})
	if err != nil {
		s.log.Warn("workspace/configuration failed", zap.Error(err))
		return
	}
	if len(res) == 0 {
		return
	}
	s.setEditorConfig(ctx, res[0])
}

func (s *Server) setEditorConfig(ctx context.Context, raw []byte) {
	cfg := s.decodeSettings(ctx, "editor settings", raw)
	s.announceWorkspaceAgent(ctx, raw)
	restricted, has := restrictedOption(raw)
	s.mu.Lock()
	s.config.editor = cfg
	if has {
		s.config.restricted = restricted
	}
	s.mu.Unlock()
}

// DidChangeConfiguration re-reads the editor's settings and re-checks the
// open documents. Clients that support workspace/configuration are asked
// again (the notification's payload is often empty); others push their
// settings, under "charter" or as the object itself.
func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.caps.configuration
	s.mu.Unlock()
	if pull {
		s.fetchEditorConfig(ctx)
	} else if settings := bytes.TrimSpace(params.Settings); len(settings) > 0 && !bytes.Equal(settings, []byte("null")) {
		var wrapped map[string]json.RawMessage
		if err := json.Unmarshal(settings, &wrapped); err == nil {
			if inner, ok := wrapped[configSection]; ok {
				settings = inner
			}
		}
		s.setEditorConfig(ctx, settings)
	}
	st := s.settings()
	s.diags.schedule(s.update(workspace.Change{Settings: &st}), "")
	s.updateWatchers(ctx)
	return nil
}
