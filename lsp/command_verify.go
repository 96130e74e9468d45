package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/record"
	"github.com/charter-lsp/charter-lsp/verify"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// commandVerify runs a criterion's command and records the result.
const commandVerify = string(feature.CmdVerify)

// verifyArgs are charter.verify's arguments: the criterion (a file of its
// charter, or its folder, and its id) and the command the user was shown.
type verifyArgs struct {
	URI         uri.URI `json:"uri"`
	CriterionID string  `json:"criterionId"`
	Command     string  `json:"command"`
}

// The answers of the confirmation.
const (
	verifyRun       = "Run"
	verifyRunAnyway = "Run anyway"
	verifyCancel    = "Cancel"
)

// verifyCommand runs the command that verifies a criterion, only when the
// user asked for exactly that command, and records what it printed:
//
//  1. in Restricted Mode it refuses (a workspace that is not trusted runs
//     nothing);
//  2. it reads the criterion's command from the current snapshot and
//     refuses when it is not the text the user was shown (the lens's or
//     action's argument), or when what the run touches lies outside the
//     workspace folders;
//  3. it shows the command verbatim and asks (window/showMessageRequest:
//     Run / Cancel; a command that can pass on zero tests says so and asks
//     "Run anyway") — only "Run" runs it;
//  4. it runs it (package verify), streaming the output and a progress
//     with Cancel; a cancelled or timed-out run records nothing;
//  5. it records the result: a pi-charter VAL's evidence through
//     record.Apply, a .charters criterion's Status line (an edit of the open
//     document, else a write of charter.md) with the output as an artifact.
func (s *Server) verifyCommand(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var a verifyArgs
	if err := commandArg(commandVerify, args, &a); err != nil {
		return nil, err
	}
	if s.settings().Restricted {
		return nil, s.refuse(ctx, "charter-lsp: not running %s's command: this workspace is not trusted (Restricted Mode), and a command from the repository runs only in a trusted one", a.CriterionID)
	}
	p, err := filePath(a.URI)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", commandVerify, err)
	}
	dir := analysis.CharterFolderAt(p)
	if dir == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is in no charter folder (.pi/charters/<id> or .charters/<id>)", commandVerify, p)
	}
	if !s.InWorkspace(dir) {
		return nil, s.refuse(ctx, "charter-lsp: not verifying in %s: it is outside the workspace folders", dir)
	}
	t, err := s.verifyTarget(ctx, s.ws.Snapshot(), dir, a.CriterionID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, s.refuse(ctx, "charter-lsp: not verifying: %v", err)
	}
	if t.Verification.Command != a.Command {
		return nil, s.refuse(ctx, "charter-lsp: not running anything: the command of %s is now %q, not the %q that was shown; look at it and ask again", t.ID, t.Verification.Command, a.Command)
	}
	if err := t.InsideFolders(s.Roots()); err != nil {
		return nil, s.refuse(ctx, "charter-lsp: not verifying %s: %v", t.ID, err)
	}
	answer := verify.RunAnswer{CriterionID: t.ID, Dir: t.Dir, Command: t.Verification.Command}
	if w := t.Verification.Weak; w != nil {
		answer.Weak = w.Reason
	}
	if !s.confirmVerify(ctx, t) {
		answer.Declined = true
		return answer, nil
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	answer.Run = s.running.add("charter-verify", cancel)
	defer s.running.remove(answer.Run)
	stream := s.startStream(ctx, answer.Run, t)
	s.log.Info("verify", zap.String("criterion", t.ID), zap.String("dir", t.Project), zap.String("command", t.Verification.Command))
	res, err := verify.Run(runCtx, t.Verification.Command, verify.Options{Dir: t.Project, Output: stream.write})
	if err != nil {
		stream.end("could not run: "+err.Error(), "")
		return nil, s.refuse(ctx, "charter-lsp: could not run %s's command: %v", t.ID, err)
	}
	answer.DurationMs = res.Duration.Milliseconds()
	if !res.Finished() {
		answer.Cancelled, answer.TimedOut = res.Cancelled, res.TimedOut
		why := "cancelled"
		if res.TimedOut {
			why = fmt.Sprintf("stopped after %s (the time limit)", verify.DefaultTimeout)
		}
		stream.end(why+"; nothing recorded", "")
		s.show(s.ctx, protocol.MessageTypeInfo, fmt.Sprintf("charter-lsp: %s: %s %s; nothing recorded", t.ID, "`"+t.Verification.Command+"`", why))
		return answer, nil
	}
	code := res.ExitCode
	answer.ExitCode, answer.Outcome = &code, string(res.Outcome())

	// The run is over: record it even if the request is cancelled now.
	recCtx, stop := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer stop()
	if err := s.recordVerify(recCtx, t, res, &answer); err != nil {
		stream.end(fmt.Sprintf("%s: %s; not recorded", res.Outcome(), res.Ran()), "")
		return nil, err
	}
	summary := fmt.Sprintf("%s: %s; recorded in %s", res.Outcome(), res.Ran(), answer.Recorded)
	stream.end(summary, answer.Recorded)
	s.refreshLenses(recCtx)
	s.show(s.ctx, protocol.MessageTypeInfo, "charter-lsp: "+t.ID+" "+summary)
	return answer, nil
}

// verifyTarget reads criterion id of the charter folder dir from snap.
func (s *Server) verifyTarget(ctx context.Context, snap *workspace.Snapshot, dir, id string) (*verify.Target, error) {
	if analysis.PiCharterDir(filepath.Join(dir, "x")) != "" {
		view, err := snap.PiView(ctx, dir)
		if err != nil {
			return nil, err
		}
		return verify.PiTarget(view.Dir, id)
	}
	view, err := snap.ChartersView(ctx, dir)
	if err != nil {
		return nil, err
	}
	return verify.ChartersTarget(view.Dir, id)
}

// confirmVerify shows the command verbatim and asks whether to run it.
func (s *Server) confirmVerify(ctx context.Context, t *verify.Target) bool {
	run, kind := verifyRun, protocol.MessageTypeInfo
	if t.Verification.Weak != nil {
		run, kind = verifyRunAnyway, protocol.MessageTypeWarning
	}
	res, err := s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{
		Type:    kind,
		Message: t.Prompt(),
		Actions: []protocol.MessageActionItem{{Title: run}, {Title: verifyCancel}},
	})
	if err != nil {
		s.log.Debug("window/showMessageRequest", zap.Error(err))
		return false
	}
	return res != nil && res.Title == run
}

// recordVerify records a finished run: a VAL's evidence (record.Apply) or
// a .charters criterion's Status line and artifact.
func (s *Server) recordVerify(ctx context.Context, t *verify.Target, res *verify.Result, answer *verify.RunAnswer) error {
	snap := s.ws.Snapshot()
	if t.Criterion != nil {
		plan, err := record.Plan(snap.FS(), t.Dir, []record.Entry{res.PiEntry(t.Criterion, t.Verification)}, record.Options{Now: time.Now()})
		if err != nil {
			return s.refuse(ctx, "charter-lsp: not recording %s's run: %v", t.ID, err)
		}
		criteria := t.Dir
		if view, err := snap.PiView(ctx, t.Dir); err == nil {
			criteria = view.Dir.CriteriaPath
		}
		if err := s.applyRecord(ctx, plan, criteria); err != nil {
			return err
		}
		w := plan.Entries[0]
		answer.Recorded = filepath.Join(plan.Dir, filepath.FromSlash(w.Path))
		if len(w.Artifacts) > 0 {
			answer.Artifact = filepath.Join(plan.Dir, filepath.FromSlash(w.Artifacts[0]))
		}
		return nil
	}
	// A .charters criterion: its line is edited in the charter as it is
	// now (the command ran for a while).
	view, err := snap.ChartersView(ctx, t.Dir)
	if err != nil {
		return err
	}
	now, err := verify.ChartersTarget(view.Dir, t.ID)
	if err != nil {
		return s.refuse(ctx, "charter-lsp: not recording %s's run: %v", t.ID, err)
	}
	rel, err := verify.ChartersArtifact(t.Dir, t.ID, res)
	if err != nil {
		return s.refuse(ctx, "charter-lsp: not recording %s's run: the output file: %v", t.ID, err)
	}
	answer.Artifact = filepath.Join(t.Dir, filepath.FromSlash(rel))
	written := []string{answer.Artifact}
	fix, err := res.ChartersFix(now.Charter, t.ID, t.Verification, rel)
	if err != nil {
		return s.refuse(ctx, "charter-lsp: not recording %s's run in %s: %v (the output is in %s)", t.ID, filepath.Base(t.CharterPath), err, rel)
	}
	if f := snap.File(t.CharterPath); f.Open() {
		ix := source.NewIndex(f.Text)
		edits := make([]protocol.TextEdit, len(fix.Edits))
		for i, e := range fix.Edits {
			edits[i] = protocol.TextEdit{Range: toProtocolRange(ix.Range(e.Span)), NewText: e.NewText}
		}
		v := f.Version
		edit, err := s.workspaceEdit(editTarget{URI: s.docs.uri(t.CharterPath), Path: t.CharterPath, Text: f.Text, Exists: true, Version: &v, Kind: f.Kind()}, edits)
		if err == nil {
			err = s.applyEdit(ctx, fix.Title, edit)
		}
		if err != nil {
			return s.refuse(ctx, "charter-lsp: not recording %s's run in %s: %v (the output is in %s)", t.ID, filepath.Base(t.CharterPath), err, rel)
		}
	} else {
		if err := verify.WriteCharter(t.Dir, t.CharterPath, now.Text, fix); err != nil {
			return s.refuse(ctx, "charter-lsp: not recording %s's run in %s: %v (the output is in %s)", t.ID, filepath.Base(t.CharterPath), err, rel)
		}
		written = append(written, t.CharterPath)
	}
	answer.Recorded = t.CharterPath
	s.diags.schedule(s.update(workspace.Change{Disk: written}), "")
	return nil
}

// refreshLenses asks the client to ask for code lenses again (a VAL's
// lens shows its latest outcome), when it can.
func (s *Server) refreshLenses(ctx context.Context) {
	s.mu.Lock()
	w := s.caps.all.Workspace
	can := w != nil && w.CodeLens != nil && isTrue(w.CodeLens.RefreshSupport)
	s.mu.Unlock()
	if can {
		if err := s.client.CodeLensRefresh(ctx); err != nil {
			s.log.Debug("workspace/codeLens/refresh", zap.Error(err))
		}
	}
}
