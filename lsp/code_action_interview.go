package lsp

import (
	"bytes"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
)

// codeActionInterview is the kind of the interview actions: rewrites of the
// charter, listed with the refactorings.
const codeActionInterview = protocol.CodeActionKind(feature.KindInterview)

// interviewActions are the interview steps that make sense for the
// document now (a skeleton charter's are in code_action_skeleton.go). Each
// runs its command, so the edit is computed against the document as it is
// when chosen (and refused if it changed since this version), and the
// command can place the cursor after applying it.
func (s *Server) interviewActions(d *doc, params *protocol.CodeActionParams) []*protocol.CodeAction {
	if d.Kind != analysis.KindRP1Charter && d.Kind != analysis.KindOtherCharter {
		return nil
	}
	if !s.InWorkspaceURI(d.URI) {
		return nil // every interview action edits the file
	}
	ch := d.RP1()
	if sk := d.skeleton(); sk != nil {
		return s.skeletonActions(d, sk, params)
	}
	opts := interview.Options{Budget: d.config().Budget(), Path: d.Path}
	r := interview.Next(d.Text, true, opts)
	action := func(title, command string) *protocol.CodeAction {
		return &protocol.CodeAction{Title: title, Kind: actionKind(codeActionInterview), Command: protocol.Command{
			Title: title, Command: command, Arguments: commandArgs(interviewArgs{URI: d.URI, Version: &d.Version}),
		}}
	}
	var out []*protocol.CodeAction
	blank := len(bytes.TrimSpace(d.Text)) == 0
	switch {
	case ch.ScratchPad == nil && (blank || d.Kind == analysis.KindOtherCharter || r.Type == interview.TypeSuccess):
		out = append(out, action("Start charter interview", cmdInterviewStart))
	case r.Type == interview.TypeNextQuestion && r.Pending != nil:
		out = append(out, action(fmt.Sprintf("Skip pending question Q%d (%s)", r.Pending.Number, r.Pending.Topic), cmdInterviewSkip))
	case (r.Type == interview.TypeNextQuestion || r.Type == interview.TypeSkip) && s.agentConfig().Enabled() && !s.settings().Restricted:
		// The agent decides what comes next when the action runs.
		out = append(out, action(fmt.Sprintf("Ask next interview question (the interview agent, %s, decides)", s.agentConfig().Name()), cmdInterviewNext))
	case r.Type == interview.TypeNextQuestion, r.Type == interview.TypeSkip:
		out = append(out, action(fmt.Sprintf("Ask next interview question (%s)", nextTopic(r)), cmdInterviewNext))
	}
	if blank {
		// rp1's current format: the template's seven regions, each _TBD_,
		// then the region interview (code_action_skeleton.go).
		fix := &diag.Fix{Title: "Start rp1's skeleton charter (seven regions, no scratch pad)", Edits: []diag.Edit{{
			Span: source.Span{Start: 0, End: len(d.Text)}, NewText: string(interview.NewSkeleton(interview.ProjectName(d.Path), time.Now()))}}}
		out = append(out, s.editActions(d, []*diag.Fix{fix}, codeActionInterview)...)
	}
	if ch.ScratchPad != nil {
		opts.FinishNow = true
		if f := interview.Next(d.Text, true, opts); f.Type == interview.TypeSuccess {
			out = append(out, action("Finish interview", cmdInterviewFinish))
		}
	}
	return out
}

// nextTopic names what the next action is about: the question's topic, or
// the section a skip records.
func nextTopic(r interview.Response) string {
	if r.Type == interview.TypeSkip {
		return "records a skip of " + r.Topic
	}
	return fmt.Sprintf("Q%d %s", r.Metadata.QuestionNumber, r.Topic)
}
