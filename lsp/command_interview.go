package lsp

import (
	"bytes"
	"context"
	"errors"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/agent"
)

// The interview commands. Each takes one argument, interviewArgs, applies
// its edit through workspace/applyEdit and returns the interview's JSON
// response (upstream's StatelessAgentResponse).
const (
	cmdInterviewNext   = string(feature.CmdInterviewNext)
	cmdInterviewSkip   = string(feature.CmdInterviewSkip)
	cmdInterviewFinish = string(feature.CmdInterviewFinish)
	cmdInterviewStart  = string(feature.CmdInterviewStart)
)

// interviewArgs name the charter; Version, when set, is the document version
// the action was offered for: a newer version refuses the command rather
// than editing text the user has not seen.
type interviewArgs struct {
	URI     uri.URI `json:"uri"`
	Version *int32  `json:"version,omitempty"`
}

// interviewStep is what an interview command decided: the response, the
// edits against the target's text (none: nothing to write), the text after
// them, and where the cursor belongs in it (-1: nowhere).
type interviewStep struct {
	resp   interview.Response
	edits  []interview.Edit
	after  []byte
	cursor int
	// agent is the interview agent that decided the step (nil: the
	// built-in engine did, or answered after the agent failed).
	agent *agent.Interviewer
}

func (s *Server) interviewNext(ctx context.Context, args []protocol.LSPAny) (any, error) {
	if s.skeletonArg(args) {
		// rp1's current charter keeps no scratch pad: its next question is
		// the first gap region's, answered in place (what an editor's "ask
		// the next question" means there).
		return s.interviewRegion(ctx, args)
	}
	return s.runInterview(ctx, cmdInterviewNext, args, "Ask the next interview question", func(t editTarget, opts interview.Options) (interviewStep, error) {
		return s.nextStep(ctx, t.Path, t.Text, t.Exists, opts)
	})
}

func (s *Server) interviewStart(ctx context.Context, args []protocol.LSPAny) (any, error) {
	return s.runInterview(ctx, cmdInterviewStart, args, "Start the charter interview", func(t editTarget, opts interview.Options) (interviewStep, error) {
		mode := interview.ModeUpdate
		if !t.Exists || len(bytes.TrimSpace(t.Text)) == 0 {
			mode = interview.ModeCreate
		}
		start := interview.Start(t.Text, mode, opts.Now)
		text := interview.Apply(t.Text, start.Edits)
		// Ask the first question in the same edit: starting an interview
		// without a question would leave the user with nothing to answer.
		step, err := s.nextStep(ctx, t.Path, text, true, opts)
		if err != nil {
			return step, err
		}
		if step.resp.Type != interview.TypeNextQuestion {
			// A finished charter in UPDATE mode has nothing to ask; keep the
			// fresh scratch pad and say so rather than finishing it again.
			step = interviewStep{resp: step.resp, after: text, cursor: -1}
		}
		return chain(t.Text, start.Edits, step), nil
	})
}

func (s *Server) interviewSkip(ctx context.Context, args []protocol.LSPAny) (any, error) {
	return s.runInterview(ctx, cmdInterviewSkip, args, "Skip the pending interview question", func(t editTarget, opts interview.Options) (interviewStep, error) {
		p, err := interview.SkipPending(t.Text, "")
		if errors.Is(err, interview.ErrNoPendingQuestion) {
			return interviewStep{}, jsonrpc2.Errorf(codeRequestFailed, "no interview question is awaiting an answer in %s", t.Path)
		}
		if err != nil {
			return interviewStep{}, err
		}
		after := interview.Apply(t.Text, p.Edits)
		// Report what comes next, without doing it: the user asks for it.
		return interviewStep{resp: interview.Next(after, true, opts), edits: p.Edits, after: after, cursor: -1}, nil
	})
}

func (s *Server) interviewFinish(ctx context.Context, args []protocol.LSPAny) (any, error) {
	return s.runInterview(ctx, cmdInterviewFinish, args, "Finish the charter interview", func(t editTarget, opts interview.Options) (interviewStep, error) {
		opts.FinishNow = true
		r := interview.Next(t.Text, t.Exists, opts)
		if r.Type != interview.TypeSuccess {
			return interviewStep{}, jsonrpc2.Errorf(codeRequestFailed, "%s", r.Message)
		}
		p, err := interview.Finish(t.Text, r, opts.Now)
		if err != nil {
			return interviewStep{}, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
		}
		return interviewStep{resp: r, edits: p.Edits, after: interview.Apply(t.Text, p.Edits), cursor: -1}, nil
	})
}

// skeletonArg reports whether an interview command's argument names an
// rp1 skeleton charter in the workspace. Anything else (a bad argument, a
// file outside the workspace) is left to runInterview to refuse.
func (s *Server) skeletonArg(args []protocol.LSPAny) bool {
	var a interviewArgs
	if commandArg(cmdInterviewNext, args, &a) != nil || a.URI == "" {
		return false
	}
	path, err := filePath(a.URI)
	if err != nil || !s.InWorkspace(path) {
		return false
	}
	f := s.ws.Snapshot().File(path)
	return f.Exists() && !f.TooLarge() && skeletonOf(f) != nil
}

// requestFailed reports err to the client as a failed request.
func requestFailed(err error) error {
	return jsonrpc2.Errorf(codeRequestFailed, "%v", err)
}

// chain combines edits made against orig (first) with a step computed on
// the text they produce. A single set of edits is kept as is; two become
// one edit covering what changed, since the second set refers to text the
// editor has not seen yet.
func chain(orig []byte, first []interview.Edit, next interviewStep) interviewStep {
	switch {
	case len(first) == 0:
		return next
	case len(next.edits) == 0:
		next.edits = first
		return next
	}
	next.edits = []interview.Edit{interview.Diff(orig, next.after)}
	return next
}

// runInterview resolves the target of an interview command, runs decide on
// it, applies the edits (versioned, inside the workspace only) and moves
// the cursor. An interview error is a result, not a failure: it is returned
// and shown to the user.
func (s *Server) runInterview(ctx context.Context, name string, args []protocol.LSPAny, label string,
	decide func(editTarget, interview.Options) (interviewStep, error)) (any, error) {
	var a interviewArgs
	if err := commandArg(name, args, &a); err != nil {
		return nil, err
	}
	if a.URI == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the argument has no uri", name)
	}
	t, err := s.target(ctx, a.URI, a.Version)
	if err != nil {
		return nil, err
	}
	opts := interview.Options{Budget: t.Config.Budget(), Now: time.Now(), Path: t.Path}
	step, err := decide(t, opts)
	if err != nil {
		return nil, err
	}
	if step.resp.Type == interview.TypeError {
		s.show(ctx, protocol.MessageTypeWarning, step.resp.Message)
	}
	if len(step.edits) > 0 {
		ix := source.NewIndex(t.Text)
		edit, err := s.workspaceEdit(t, textEdits(ix, step.edits))
		if err != nil {
			return nil, err
		}
		if err := s.applyEdit(ctx, label, edit); err != nil {
			return nil, err
		}
	}
	if step.cursor >= 0 {
		pos := source.NewIndex(step.after).Position(step.cursor)
		s.showAt(ctx, t.URI, toProtocolPosition(pos))
	}
	return step.resp, nil
}

// show sends window/showMessage.
func (s *Server) show(ctx context.Context, typ protocol.MessageType, msg string) {
	if s.client == nil || msg == "" {
		return
	}
	_ = s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: typ, Message: msg})
}
