package lsp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/agent"
)

// cmdInterviewTurn is the interview as a conversation in the editor's
// prompts: each call carries out what the user chose in the last prompt
// (an answer, a skip, finishing; nothing to start or go on), applies the
// edits, and returns the next prompt to show (turn): its title ("Q2 of 5 ·
// Target Users"), the question, the command that takes the answer and the
// buttons, each a command with its arguments. The editor shows what it is
// given and runs what the user picks; every word and every meaning comes
// from the interview (interview.PadPrompt, interview.RegionPrompt). For a
// scratch-pad charter the steps are the seed's (with the interview agent
// deciding when one is configured); for a skeleton charter the region
// interview's, the agent then finalizing the charter once no gap is left.
const cmdInterviewTurn = string(feature.CmdInterviewTurn)

// turnArgs are the argument of a turn's command; the editor sends a
// button's arguments as they are, and the answer's with "answer" set to
// what the user typed.
type turnArgs struct {
	URI uri.URI `json:"uri"`
	Do  string  `json:"do,omitempty"` // interview.DoAnswer, DoSkip, DoFinish; "": ask
	// Answer is what the user typed, with Do "answer".
	Answer *string `json:"answer,omitempty"`
	// Question is the scratch pad question the answer or skip is for;
	// Region the skeleton region. An answer for a question no longer
	// asked (the charter changed) is refused.
	Question int          `json:"question,omitempty"`
	Region   rp1.RegionID `json:"region,omitempty"`
	// Passed are the skeleton regions passed over in this conversation.
	Passed []rp1.RegionID `json:"passed,omitempty"`
}

// turn is the next prompt (interview.Prompt) on the wire, or the end of
// the conversation.
type turn struct {
	Done        bool         `json:"done"`
	Message     string       `json:"message,omitempty"`
	Level       string       `json:"level,omitempty"`
	Title       string       `json:"title,omitempty"`
	Question    string       `json:"question,omitempty"`
	Placeholder string       `json:"placeholder,omitempty"`
	Answer      *turnAction  `json:"answer,omitempty"`
	Buttons     []turnAction `json:"buttons"`
	// Response is the interview's response behind the prompt (a
	// scratch-pad charter: upstream's StatelessAgentResponse); Region the
	// skeleton charter's state.
	Response *interview.Response `json:"response,omitempty"`
	Region   *regionResult       `json:"region,omitempty"`
}

// turnAction is a choice in the prompt and the command that carries it
// out: run it with its arguments (the answer's with arguments[0].answer set
// to the text).
type turnAction struct {
	// ID names the choice ("answer", "skip", "finish"), for an icon.
	ID        string            `json:"id"`
	Label     string            `json:"label"`
	Tooltip   string            `json:"tooltip"`
	Command   string            `json:"command"`
	Arguments []protocol.LSPAny `json:"arguments"`
}

// toTurn converts a prompt about the document at u.
func toTurn(u uri.URI, p interview.Prompt) turn {
	action := func(c interview.Choice) turnAction {
		return turnAction{ID: c.Do, Label: c.Label, Tooltip: c.Tooltip, Command: cmdInterviewTurn,
			Arguments: commandArgs(turnArgs{URI: u, Do: c.Do, Question: c.Question, Region: c.Region, Passed: c.Passed})}
	}
	out := turn{Done: p.Done, Message: p.Message, Level: p.Level, Title: p.Title, Question: p.Question, Placeholder: p.Placeholder, Buttons: []turnAction{}}
	if p.Answer != nil {
		a := action(*p.Answer)
		out.Answer = &a
	}
	for _, c := range p.Buttons {
		out.Buttons = append(out.Buttons, action(c))
	}
	return out
}

func (s *Server) interviewTurn(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var a turnArgs
	if err := commandArg(cmdInterviewTurn, args, &a); err != nil {
		return nil, err
	}
	if a.URI == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the argument has no uri", cmdInterviewTurn)
	}
	switch a.Do {
	case interview.DoAsk, interview.DoSkip, interview.DoFinish:
	case interview.DoAnswer:
		if a.Answer == nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: do \"answer\" needs the answer", cmdInterviewTurn)
		}
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: do %q is none of answer, skip, finish", cmdInterviewTurn, a.Do)
	}
	t, err := s.target(ctx, a.URI, nil)
	if err != nil {
		return nil, err
	}
	if t.Exists && rp1.Parse(t.Text).Format == rp1.FormatSkeleton {
		return s.regionTurn(ctx, t, a)
	}
	return s.padTurn(ctx, t, a)
}

// padTurn is a turn of a scratch-pad charter's interview.
func (s *Server) padTurn(ctx context.Context, t editTarget, a turnArgs) (turn, error) {
	opts := interview.Options{Budget: t.Config.Budget(), Now: time.Now(), Path: t.Path}
	text := t.Text
	var first []interview.Edit
	switch a.Do {
	case interview.DoAnswer, interview.DoSkip:
		if e := rp1.Parse(text).ScratchPad.PendingEntry(); e == nil || (a.Question != 0 && e.Number != a.Question) {
			return turn{}, jsonrpc2.Errorf(codeRequestFailed, "Q%d of %s is no longer awaiting an answer (the charter changed): ask again", a.Question, t.Path)
		}
		var p interview.Plan
		var err error
		if a.Do == interview.DoAnswer {
			p, err = interview.AnswerPending(text, a.Question, *a.Answer)
		} else {
			p, err = interview.SkipPending(text, "")
		}
		if err != nil {
			return turn{}, requestFailed(err)
		}
		first, text = p.Edits, interview.Apply(text, p.Edits)
	case interview.DoFinish:
		opts.FinishNow = true
		r := interview.Next(text, t.Exists, opts)
		if r.Type != interview.TypeSuccess {
			return turn{Done: true, Level: "error", Message: r.Message, Response: &r}, nil
		}
		p, err := interview.Finish(text, r, opts.Now)
		if err != nil {
			return turn{}, requestFailed(err)
		}
		after := interview.Apply(text, p.Edits)
		if err := s.applyTextEdits(ctx, t, "Finish the charter interview", p.Edits); err != nil {
			return turn{}, err
		}
		return s.padTurnFor(t, interviewStep{resp: r, after: after, cursor: -1}), nil
	case interview.DoAsk:
		// A charter with no scratch pad and nothing to ask is not
		// finished again by starting a conversation.
		if r := interview.Next(text, t.Exists, opts); r.Type == interview.TypeSuccess && rp1.Parse(text).ScratchPad == nil {
			out := toTurn(t.URI, interview.NothingToAsk())
			out.Response = &r
			return out, nil
		}
	}
	step, err := s.nextStep(ctx, t.Path, text, t.Exists || len(first) > 0, opts)
	if err != nil {
		return turn{}, err
	}
	step = chain(t.Text, first, step)
	if err := s.applyTextEdits(ctx, t, "Charter interview", step.edits); err != nil {
		return turn{}, err
	}
	if step.cursor >= 0 {
		s.showAt(ctx, t.URI, toProtocolPosition(source.NewIndex(step.after).Position(step.cursor)))
	}
	return s.padTurnFor(t, step), nil
}

// padTurnFor is the prompt for where a scratch-pad interview stands after
// step (interview.PadPrompt), with the check of what the agent wrote when
// it finished the charter.
func (s *Server) padTurnFor(t editTarget, step interviewStep) turn {
	r := step.resp
	askedBy := ""
	if step.agent != nil {
		askedBy = step.agent.Config.Name()
	}
	out := toTurn(t.URI, interview.PadPrompt(r, step.after, t.Path, askedBy))
	out.Response = &r
	if r.Type == interview.TypeSuccess && step.agent != nil {
		// The agent's content is written verbatim, then checked.
		if n := len(agent.Problems(step.after, t.Path, t.Config)); n > 0 {
			out.Level = "warning"
			out.Message += fmt.Sprintf(" check reports %d problem(s) in what %s wrote: see the Problems view.", n, step.agent.Config.Name())
		}
	}
	return out
}

// regionTurn is a turn of a skeleton charter's region interview.
func (s *Server) regionTurn(ctx context.Context, t editTarget, a turnArgs) (turn, error) {
	text := t.Text
	passed := slices.Clone(a.Passed)
	switch a.Do {
	case interview.DoFinish:
		return turn{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: a skeleton charter's interview has no finish: every region is asked, or passed over", cmdInterviewTurn)
	case interview.DoSkip:
		if a.Region != "" && !slices.Contains(passed, a.Region) {
			passed = append(passed, a.Region)
		}
	case interview.DoAnswer:
		if !a.Region.Known() {
			return turn{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: an answer names its region (%s)", cmdInterviewTurn, rp1.JoinRegions(rp1.Regions))
		}
		if r := rp1.ReadSkeleton(rp1.Parse(text)).Region(a.Region); r != nil && !r.Gap() {
			return turn{}, jsonrpc2.Errorf(codeRequestFailed, "%s of %s was written meanwhile (the charter changed): ask again", a.Region, t.Path)
		}
		p, err := interview.AnswerRegion(text, a.Region, *a.Answer)
		if err != nil {
			return turn{}, requestFailed(err)
		}
		if err := s.applyTextEdits(ctx, t, "Answer "+string(a.Region), p.Edits); err != nil {
			return turn{}, err
		}
		text = interview.Apply(text, p.Edits)
	}
	p, st := interview.RegionPrompt(text, passed)
	out := toTurn(t.URI, p)
	out.Region = regionResultOf(st)
	if p.Done && len(st.Gaps) == 0 {
		if note := s.finalizeWithAgent(ctx, t, text); note != "" {
			out.Message += " " + note
		}
	}
	return out, nil
}

// finalizeWithAgent runs the interview agent as rp1's finalizer on a
// skeleton charter with no gap left (when one is configured and allowed)
// and says what it answered, or why the built-in finalizer's verdict
// stands. The status is the one the gaps call for either way.
func (s *Server) finalizeWithAgent(ctx context.Context, t editTarget, text []byte) string {
	iv := s.interviewer(ctx, t.Path)
	if iv == nil {
		return ""
	}
	var r rp1.FinalizerResponse
	err := s.withAgentProgress(ctx, iv, func(ctx context.Context) error {
		var err error
		r, err = iv.Finalize(ctx, text, t.Path)
		return err
	})
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return "The interview agent's finalizer was cancelled."
	case iv.Failed != nil:
		return iv.Fallback()
	}
	msg := fmt.Sprintf("The interview agent (%s) finalized it: %s.", iv.Config.Name(), r.Status)
	if len(r.Warnings) > 0 {
		msg += " Its warnings: " + strings.Join(r.Warnings, "; ")
	}
	return msg
}
