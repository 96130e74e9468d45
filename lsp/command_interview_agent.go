package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/agent"
)

// The interview agent (interview/agent) is named in the user's settings
// only: lsp.Options.Agent (charter-lsp serve reads CHARTER_LSP_AGENT), and
// initializationOptions "interviewAgent" / "interviewAgentTimeout"
// (seconds), which the editors fill from user-level settings alone (VS
// Code's machine-scoped charter.interviewAgent, Neovim's setup{ agent }).
// The same keys in workspace/configuration (the workspace's settings) or a
// project file are ignored and said so, and no agent runs in an untrusted
// workspace (Restricted Mode).

// agentSetting is what initializationOptions say about the agent.
type agentSetting struct {
	set     bool // interviewAgent was given (even ""; "" turns the agent off)
	command string
	timeout time.Duration
}

// decodeAgentSetting reads interviewAgent and interviewAgentTimeout from
// initializationOptions, with a warning for a value it ignores.
func decodeAgentSetting(raw []byte) (agentSetting, []string) {
	var v struct {
		Agent   json.RawMessage `json:"interviewAgent"`
		Timeout json.RawMessage `json:"interviewAgentTimeout"`
	}
	var a agentSetting
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &v) != nil {
		return a, nil
	}
	var warnings []string
	if len(v.Agent) > 0 && string(v.Agent) != "null" {
		if err := json.Unmarshal(v.Agent, &a.command); err != nil {
			warnings = append(warnings, fmt.Sprintf("interviewAgent: %s is not a command line (a string); ignored", v.Agent))
		} else {
			a.set = true
		}
	}
	if len(v.Timeout) > 0 && string(v.Timeout) != "null" {
		var secs float64
		if err := json.Unmarshal(v.Timeout, &secs); err != nil {
			warnings = append(warnings, fmt.Sprintf("interviewAgentTimeout: %s is not a number of seconds; ignored", v.Timeout))
		} else if d, err := agent.Seconds(time.Duration(secs * float64(time.Second))); err != nil {
			warnings = append(warnings, fmt.Sprintf("interviewAgentTimeout: %v; using the default %s", err, agent.DefaultTimeout))
		} else {
			a.timeout = d
		}
	}
	return a, warnings
}

// setInitAgent takes the agent from initializationOptions.
func (s *Server) setInitAgent(ctx context.Context, raw []byte) {
	a, warnings := decodeAgentSetting(raw)
	if len(warnings) > 0 {
		s.show(ctx, protocol.MessageTypeWarning, "charter-lsp: initializationOptions: "+strings.Join(warnings, "; "))
	}
	s.mu.Lock()
	s.config.agent = a
	s.mu.Unlock()
}

// agentConfig is the agent the user configured: initializationOptions
// over the server's own (Options.Agent); Enabled false when none.
func (s *Server) agentConfig() agent.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.agent
	if a := s.config.agent; a.set {
		c.Command, c.From = a.command, "the editor's user settings (initializationOptions.interviewAgent)"
	}
	if a := s.config.agent; a.timeout > 0 {
		c.Timeout = a.timeout
	}
	return c
}

// announceWorkspaceAgent says once that the workspace's settings named
// the agent, which they cannot.
func (s *Server) announceWorkspaceAgent(ctx context.Context, raw []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return
	}
	for _, k := range analysis.UserOnlyKeys {
		if _, ok := top[k]; ok {
			s.sayOnce(ctx, "workspace\x00"+k, protocol.MessageTypeWarning,
				fmt.Sprintf("charter-lsp: %s in the workspace settings is ignored: %s.", k, analysis.UserOnlyWhy))
		}
	}
}

// sayOnce shows msg the first time key is said in the session, and logs it.
func (s *Server) sayOnce(ctx context.Context, key string, typ protocol.MessageType, msg string) {
	s.mu.Lock()
	if s.config.announced == nil {
		s.config.announced = map[string]bool{}
	}
	said := s.config.announced["said\x00"+key]
	s.config.announced["said\x00"+key] = true
	s.mu.Unlock()
	if said {
		return
	}
	s.log.Info("interview agent", zap.String("note", msg))
	s.show(ctx, typ, msg)
}

// interviewer is the agent to run for an interview step on path, or nil:
// none is configured, or the workspace is not trusted (said once). A
// project file naming an agent is said to be ignored too.
func (s *Server) interviewer(ctx context.Context, path string) *agent.Interviewer {
	if file, keys := s.projectAgentKeys(path); len(keys) > 0 {
		s.sayOnce(ctx, "project\x00"+file, protocol.MessageTypeWarning, fmt.Sprintf(
			"charter-lsp: %s in %s is ignored: %s.", strings.Join(keys, " and "), filepath.Base(file), analysis.UserOnlyWhy))
	}
	cfg := s.agentConfig()
	if !cfg.Enabled() {
		return nil
	}
	if s.settings().Restricted {
		s.sayOnce(ctx, "restricted", protocol.MessageTypeWarning, fmt.Sprintf(
			"charter-lsp: the interview agent (%s) is not run in an untrusted workspace (Restricted Mode): the charter it would read is the workspace's. The built-in interviewer asks instead; trust the workspace to use the agent.", cfg.Name()))
		return nil
	}
	return &agent.Interviewer{Config: cfg, Log: func(c agent.Call, out agent.Output, err error) {
		s.log.Info("interview agent call", zap.String("agent", cfg.Name()), zap.String("contract", string(c.Contract)),
			zap.String("mode", c.Mode), zap.Duration("took", out.Took), zap.Int("stdout", len(out.Stdout)),
			zap.String("stderr", out.Stderr), zap.Error(err))
	}}
}

// projectAgentKeys names the project file that applies to path and the
// user-only keys it sets.
func (s *Server) projectAgentKeys(path string) (string, []string) {
	snap := s.ws.Snapshot()
	file, _ := snap.IgnoredProjectKeys(path)
	if file == "" {
		return "", nil
	}
	f := snap.File(file)
	if f.Err != nil {
		return "", nil
	}
	keys, _ := analysis.UserOnlyIn(f.Text)
	return file, keys
}

// nextStep carries out the next interview action (interview.Advance, as
// the CLI's --apply does), asking the agent when one is configured and
// allowed, with its progress shown and a fallback said.
func (s *Server) nextStep(ctx context.Context, path string, text []byte, exists bool, opts interview.Options) (interviewStep, error) {
	iv := s.interviewer(ctx, path)
	var st interview.Step
	var err error
	if iv == nil {
		st, err = interview.Advance(ctx, text, exists, opts)
	} else {
		err = s.withAgentProgress(ctx, iv, func(ctx context.Context) error {
			st, err = iv.Advance(ctx, text, exists, opts)
			return err
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return interviewStep{}, err
		}
		if errors.Is(err, context.Canceled) {
			// The user cancelled the agent's progress in the editor.
			return interviewStep{}, jsonrpc2.Errorf(protocol.CodeRequestCancelled, "the interview agent was cancelled: nothing was written")
		}
		return interviewStep{}, requestFailed(err)
	}
	if iv != nil {
		if msg := iv.Fallback(); msg != "" {
			s.show(ctx, protocol.MessageTypeWarning, "charter-lsp: "+msg)
		}
	}
	step := interviewStep{resp: st.Response, edits: st.Edits, after: st.Text, cursor: st.Cursor}
	if iv != nil && iv.Failed == nil {
		step.agent = iv
	}
	return step, nil
}

// withAgentProgress runs work (the agent's calls) under a progress
// report the editor shows, when it can: window/workDoneProgress/create and
// $/progress begin once the agent is first started (a step that asks it
// nothing shows nothing), a report every few seconds, end when work is
// done. Cancelling it in the editor cancels work.
func (s *Server) withAgentProgress(ctx context.Context, iv *agent.Interviewer, work func(context.Context) error) error {
	s.mu.Lock()
	can := s.caps.all.Window != nil && isTrue(s.caps.all.Window.WorkDoneProgress)
	s.mu.Unlock()
	if !can || s.client == nil {
		return work(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	token := protocol.String(s.running.add("charter-lsp/interview-agent", cancel))
	defer s.running.remove(string(token))
	name := iv.Config.Name()
	send := func(v any) {
		raw, err := json.Marshal(v)
		if err != nil {
			return
		}
		// Sent even once cancelled: the editor's progress is ended.
		if err := s.client.Progress(context.WithoutCancel(ctx), &protocol.ProgressParams{Token: token, Value: protocol.LSPAny(raw)}); err != nil {
			s.log.Debug("$/progress", zap.Error(err))
		}
	}
	msg := func(s string) *string { return &s }
	began, failed := false, false
	begin := func() {
		began = true
		if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
			s.log.Debug("window/workDoneProgress/create", zap.Error(err))
			failed = true
			return
		}
		yes := true
		send(protocol.WorkDoneProgressBegin{Kind: "begin", Title: "Interview agent", Cancellable: &yes, Message: msg("asking " + name + "…")})
	}
	iv.Progress = func(p agent.Phase, elapsed, timeout time.Duration) {
		if !began {
			begin()
		}
		if failed {
			return
		}
		switch {
		case p == agent.Started && iv.Calls > 1:
			send(protocol.WorkDoneProgressReport{Kind: "report", Message: msg(fmt.Sprintf("asking %s again (call %d)…", name, iv.Calls))})
		case p == agent.Waiting:
			send(protocol.WorkDoneProgressReport{Kind: "report", Message: msg(fmt.Sprintf("waiting for %s: %ds (gives up after %s)", name, int(elapsed.Seconds()), timeout))})
		}
	}
	err := work(ctx)
	if began && !failed {
		end := fmt.Sprintf("%s answered", name)
		switch {
		case ctx.Err() != nil:
			end = "cancelled"
		case iv.Failed != nil:
			end = fmt.Sprintf("%s failed: the built-in interviewer answered", name)
		}
		send(protocol.WorkDoneProgressEnd{Kind: "end", Message: &end})
	}
	return err
}
