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
// from here. For a scratch-pad charter the steps are the seed's (with the
// interview agent deciding when one is configured); for a skeleton charter
// the region interview's, the agent then finalizing the charter once no
// gap is left.
const cmdInterviewTurn = string(feature.CmdInterviewTurn)

// What a turn's command does (turnArgs.Do).
const (
	turnAsk    = ""       // start, or go on where the interview stands
	turnAnswer = "answer" // write Answer into the question (or region) asked
	turnSkip   = "skip"   // skip the question (pass over the region)
	turnFinish = "finish" // finish the interview now (scratch pad)
)

// turnArgs are the argument of a turn's command; the editor sends a
// button's arguments as they are, and the answer's with "answer" set to
// what the user typed.
type turnArgs struct {
	URI uri.URI `json:"uri"`
	Do  string  `json:"do,omitempty"`
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

// turn is the next prompt, or the end of the conversation.
type turn struct {
	// Done: nothing more to ask; Message says how the interview ended.
	Done bool `json:"done"`
	// Message is what to tell the user; Level is "info", "warning" or
	// "error".
	Message string `json:"message,omitempty"`
	Level   string `json:"level,omitempty"`
	// Title heads the prompt ("Q2 of 5 · Target Users"), Question is what
	// it asks, Placeholder the hint in its empty input.
	Title       string `json:"title,omitempty"`
	Question    string `json:"question,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	// Answer takes what the user types: run it with arguments[0].answer
	// set to the text.
	Answer *turnAction `json:"answer,omitempty"`
	// Buttons are the other choices, in order; run one as it is.
	Buttons []turnAction `json:"buttons"`
	// Response is the interview's response behind the prompt (a
	// scratch-pad charter: upstream's StatelessAgentResponse); Region the
	// skeleton charter's state.
	Response *interview.Response `json:"response,omitempty"`
	Region   *regionResult       `json:"region,omitempty"`
}

// turnAction is a choice in the prompt and the command that carries it out.
type turnAction struct {
	// ID names the choice ("answer", "skip", "finish"), for an icon.
	ID        string            `json:"id"`
	Label     string            `json:"label"`
	Tooltip   string            `json:"tooltip"`
	Command   string            `json:"command"`
	Arguments []protocol.LSPAny `json:"arguments"`
}

// action is a choice running the turn command with args.
func action(id, label, tooltip string, args turnArgs) turnAction {
	return turnAction{ID: id, Label: label, Tooltip: tooltip, Command: cmdInterviewTurn, Arguments: commandArgs(args)}
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
	case turnAsk, turnSkip, turnFinish:
	case turnAnswer:
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
	case turnAnswer, turnSkip:
		if e := rp1.Parse(text).ScratchPad.PendingEntry(); e == nil || (a.Question != 0 && e.Number != a.Question) {
			return turn{}, jsonrpc2.Errorf(codeRequestFailed, "Q%d of %s is no longer awaiting an answer (the charter changed): ask again", a.Question, t.Path)
		}
		var p interview.Plan
		var err error
		if a.Do == turnAnswer {
			p, err = interview.AnswerPending(text, a.Question, *a.Answer)
		} else {
			p, err = interview.SkipPending(text, "")
		}
		if err != nil {
			return turn{}, requestFailed(err)
		}
		first, text = p.Edits, interview.Apply(text, p.Edits)
	case turnFinish:
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
	case turnAsk:
		// A charter with no scratch pad and nothing to ask is not
		// finished again by starting a conversation.
		if r := interview.Next(text, t.Exists, opts); r.Type == interview.TypeSuccess && rp1.Parse(text).ScratchPad == nil {
			return turn{Done: true, Level: "info", Message: "Every section of the charter is written: the interview has nothing to ask.", Response: &r, Buttons: []turnAction{}}, nil
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
// step.
func (s *Server) padTurnFor(t editTarget, step interviewStep) turn {
	r := step.resp
	out := turn{Response: &r, Buttons: []turnAction{}}
	switch r.Type {
	case interview.TypeNextQuestion:
		n, topic := r.Metadata.QuestionNumber, r.Topic
		out.Title = fmt.Sprintf("Q%d of %d · %s", n, r.Metadata.TotalQuestions, topic)
		if step.agent != nil {
			out.Title += " (asked by " + step.agent.Config.Name() + ")"
		}
		out.Question = r.NextQuestion
		out.Placeholder = "Your answer: Enter writes it into the scratch pad; Esc stops, and the question waits there for your answer"
		out.Answer = &turnAction{ID: turnAnswer, Label: "Answer", Tooltip: fmt.Sprintf("Write the answer to Q%d", n), Command: cmdInterviewTurn,
			Arguments: commandArgs(turnArgs{URI: t.URI, Do: turnAnswer, Question: n})}
		out.Buttons = append(out.Buttons, action(turnSkip, "Skip",
			fmt.Sprintf("Skip Q%d (%s): it is recorded as skipped and not asked again", n, topic), turnArgs{URI: t.URI, Do: turnSkip, Question: n}))
		finish := interview.Options{Budget: r.Metadata.TotalQuestions, Path: t.Path, FinishNow: true}
		if f := interview.Next(step.after, true, finish); f.Type == interview.TypeSuccess {
			out.Buttons = append(out.Buttons, action(turnFinish, "Finish",
				"Finish the interview now: write the sections from the answers so far and remove the scratch pad", turnArgs{URI: t.URI, Do: turnFinish}))
		}
	case interview.TypeSuccess:
		out.Done, out.Level = true, "info"
		out.Message = finishedMessage(r, step.after)
		if step.agent != nil {
			// The agent's content is written verbatim, then checked.
			if n := len(agent.Problems(step.after, t.Path, t.Config)); n > 0 {
				out.Level = "warning"
				out.Message += fmt.Sprintf(" check reports %d problem(s) in what %s wrote: see the Problems view.", n, step.agent.Config.Name())
			}
		}
	case interview.TypeError:
		out.Done, out.Level, out.Message = true, "error", r.Message
	default: // a skip left unrecorded (the step's bound): ask again
		out.Done, out.Level, out.Message = true, "warning", r.Message
	}
	return out
}

// finishedMessage says what finishing wrote.
func finishedMessage(r interview.Response, after []byte) string {
	status := "unset"
	if f := rp1.Parse(after).Header("Status"); f != nil {
		status = f.Value
	}
	msg := fmt.Sprintf("%s The charter is finished: sections written, scratch pad removed, **Status**: %s.", r.Message, status)
	if r.Title != "" {
		msg += fmt.Sprintf(" Titled %q.", r.Title)
	}
	return msg
}

// regionTurn is a turn of a skeleton charter's region interview.
func (s *Server) regionTurn(ctx context.Context, t editTarget, a turnArgs) (turn, error) {
	text := t.Text
	passed := slices.Clone(a.Passed)
	switch a.Do {
	case turnFinish:
		return turn{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: a skeleton charter's interview has no finish: every region is asked, or passed over", cmdInterviewTurn)
	case turnSkip:
		if a.Region != "" && !slices.Contains(passed, a.Region) {
			passed = append(passed, a.Region)
		}
	case turnAnswer:
		if a.Region == "" || !isRegion(a.Region) {
			return turn{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: an answer names its region (%s)", cmdInterviewTurn, regionNames())
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
	st := regionState(text)
	out := turn{Region: &st, Buttons: []turnAction{}}
	var next rp1.RegionID
	for _, g := range st.Gaps {
		if !slices.Contains(passed, g) {
			next = g
			break
		}
	}
	if next == "" {
		out.Done, out.Level = true, "info"
		if len(st.Gaps) > 0 {
			out.Message = fmt.Sprintf("Left for later: %s (still %s); **Status** stays %s.", joinRegions(st.Gaps), rp1.TBDMarker, st.Status)
			return out, nil
		}
		out.Message = fmt.Sprintf("Every region of the charter is written; **Status**: %s.", st.Status)
		if note := s.finalizeWithAgent(ctx, t, text); note != "" {
			out.Message += " " + note
		}
		return out, nil
	}
	i := slices.Index(rp1.Regions, next)
	out.Title = fmt.Sprintf("Region %d of %d · %s", i+1, len(rp1.Regions), next)
	out.Question = interview.RegionQuestion(text, next)
	out.Placeholder = fmt.Sprintf("Your answer: Enter writes it into %s; Esc stops, and the region stays %s", next, rp1.TBDMarker)
	out.Answer = &turnAction{ID: turnAnswer, Label: "Answer", Tooltip: "Write the answer into " + string(next), Command: cmdInterviewTurn,
		Arguments: commandArgs(turnArgs{URI: t.URI, Do: turnAnswer, Region: next, Passed: passed})}
	out.Buttons = append(out.Buttons, action(turnSkip, "Skip",
		fmt.Sprintf("Leave %s %s for now (the charter stays Draft) and go on to the next gap", next, rp1.TBDMarker),
		turnArgs{URI: t.URI, Do: turnSkip, Region: next, Passed: passed}))
	return out, nil
}

// joinRegions names regions in a sentence.
func joinRegions(ids []rp1.RegionID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = string(id)
	}
	return strings.Join(names, ", ")
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
