package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// configSection is the workspace/configuration section the server reads.
const configSection = "charter"

// configLayers are the configuration sources, lowest precedence first
// (analysis.Config: project file, then editor settings, key by key).
type configLayers struct {
	project     analysis.Config // .charter-lsp.jsonc at the workspace root
	projectPath string
	init        analysis.Config // initializationOptions
	editor      analysis.Config // workspace/configuration or didChangeConfiguration
	// restricted is VS Code's Restricted Mode (the workspace is not
	// trusted), said by the editor as "restricted": true in
	// initializationOptions or its settings: then the project file may set
	// only what analysis.Config.Restricted keeps.
	restricted bool
	announced  map[string]bool // what was said about ignored keys, once each
}

// Config is the effective configuration.
func (s *Server) Config() analysis.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.config.project.Merge(s.config.init).Merge(s.config.editor)
}

// decodeConfig reads an editor-supplied configuration object. Editors send
// extra keys of their own, so unknown keys are ignored here (unlike the
// project file); invalid values are refused as a whole.
func decodeConfig(raw []byte) (analysis.Config, error) {
	var cfg analysis.Config
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return cfg, nil
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return analysis.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return analysis.Config{}, err
	}
	return cfg, nil
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

// setRestricted records the editor's word on trust.
func (s *Server) setRestricted(raw []byte) {
	if v, ok := restrictedOption(raw); ok {
		s.mu.Lock()
		s.config.restricted = v
		s.mu.Unlock()
	}
}

// restrict applies Restricted Mode to a project file's configuration, and
// says once (log and window/showMessage) which of its keys were ignored.
func (s *Server) restrict(path string, cfg analysis.Config) analysis.Config {
	s.mu.Lock()
	restricted := s.config.restricted
	s.mu.Unlock()
	if !restricted {
		return cfg
	}
	away := cfg.RestrictedAway()
	if len(away) == 0 {
		return cfg
	}
	key := path + "\x00" + strings.Join(away, ",")
	s.mu.Lock()
	said := s.config.announced[key]
	if s.config.announced == nil {
		s.config.announced = map[string]bool{}
	}
	s.config.announced[key] = true
	s.mu.Unlock()
	if !said {
		s.log.Info("Restricted Mode: project settings ignored", zap.String("file", path), zap.Strings("keys", away))
		s.show(s.ctx, protocol.MessageTypeInfo, fmt.Sprintf(
			"charter-lsp: this workspace is not trusted, so %s in %s are not applied (trust the workspace to use them, or set them in your user settings).",
			strings.Join(away, ", "), filepath.Base(path)))
	}
	return cfg.Restricted()
}

// loadProjectConfig (re)reads the project file from the first workspace
// folder that has one, through the overlay so unsaved edits count. A file
// that does not parse keeps the previous good configuration: its
// diagnostics (config-invalid) tell the user what is wrong. In Restricted
// Mode only what a project file may set there is applied.
func (s *Server) loadProjectConfig() {
	path, src := s.findProjectConfig()
	if path == "" {
		s.mu.Lock()
		s.config.project, s.config.projectPath = analysis.Config{}, ""
		s.mu.Unlock()
		return
	}
	cfg, err := analysis.ParseConfig(src)
	if err != nil {
		// The error quotes the file's content: only at debug level (the
		// config-invalid diagnostic shows it to the user).
		s.log.Warn("project configuration not applied: see the config-invalid diagnostic", zap.String("file", path))
		s.log.Debug("project configuration error", zap.String("file", path), zap.Error(err))
		return
	}
	cfg = s.restrict(path, cfg)
	s.mu.Lock()
	s.config.project, s.config.projectPath = cfg, path
	s.mu.Unlock()
	s.log.Info("project configuration", zap.String("file", path))
}

func (s *Server) findProjectConfig() (string, []byte) {
	for _, root := range s.Roots() {
		for _, name := range analysis.ConfigFileNames {
			p := filepath.Join(root, name)
			src, err := s.fs.ReadFile(p)
			if err == nil {
				return p, src
			}
			if !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("reading project configuration", zap.String("file", p), zap.Error(err))
			}
		}
	}
	return "", nil
}

// isProjectConfig reports whether path is a project file the server reads.
func (s *Server) isProjectConfig(path string) bool {
	if analysis.Classify(path, nil) != analysis.KindConfig {
		return false
	}
	dir := filepath.Dir(path)
	for _, r := range s.Roots() {
		if r == dir {
			return true
		}
	}
	return false
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
	s.setEditorConfig(res[0])
}

func (s *Server) setEditorConfig(raw []byte) {
	s.setRestricted(raw)
	cfg, err := decodeConfig(raw)
	if err != nil {
		s.log.Warn("ignoring editor settings", zap.String("section", configSection), zap.Error(err))
		return
	}
	s.mu.Lock()
	s.config.editor = cfg
	s.mu.Unlock()
}

// DidChangeConfiguration re-reads every configuration source and re-checks
// the open documents. Clients that support workspace/configuration are asked
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
		s.setEditorConfig(settings)
	}
	s.loadProjectConfig()
	s.updateWatchers(ctx)
	s.diags.scheduleAll()
	return nil
}
