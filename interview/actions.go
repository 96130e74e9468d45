package interview

import (
	"bytes"
	"fmt"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Actions are the interview steps that make sense now for a charter read
// as rp1's scratch-pad generation (ch is text parsed; a skeleton charter's
// steps are rp1.Actions): start the interview, skip the pending question,
// ask the next one, finish; and, in an empty file, write rp1's skeleton
// charter instead. other says the file is a charter of another kind
// (analysis.KindOtherCharter), where only starting makes sense; agent
// names the interview agent that decides the next question, "" when the
// built-in engine does. Each step but the skeleton runs its command on
// this version of the document (the edit is computed when it runs).
func Actions(ch *rp1.Charter, text []byte, other bool, opts Options, agent string, now time.Time) []feature.Action {
	var out []feature.Action
	step := func(title string, name feature.CommandName) {
		cmd := feature.Command{Title: title, Name: name, OnVersion: true}
		out = append(out, feature.Action{Title: title, Kind: feature.KindInterview, Command: &cmd})
	}
	r := Next(text, true, opts)
	blank := len(bytes.TrimSpace(text)) == 0
	switch {
	case ch.ScratchPad == nil && (blank || other || r.Type == TypeSuccess):
		step("Start charter interview", feature.CmdInterviewStart)
	case r.Type == TypeNextQuestion && r.Pending != nil:
		step(fmt.Sprintf("Skip pending question Q%d (%s)", r.Pending.Number, r.Pending.Topic), feature.CmdInterviewSkip)
	case (r.Type == TypeNextQuestion || r.Type == TypeSkip) && agent != "":
		// The agent decides what comes next when the action runs.
		step(fmt.Sprintf("Ask next interview question (the interview agent, %s, decides)", agent), feature.CmdInterviewNext)
	case r.Type == TypeNextQuestion, r.Type == TypeSkip:
		step(fmt.Sprintf("Ask next interview question (%s)", nextTopic(r)), feature.CmdInterviewNext)
	}
	if blank {
		// rp1's current format: the template's seven regions, each _TBD_,
		// then the region interview (rp1.Actions).
		title := "Start rp1's skeleton charter (seven regions, no scratch pad)"
		fix := &diag.Fix{Title: title, Edits: []diag.Edit{{
			Span: source.Span{Start: 0, End: len(text)}, NewText: string(NewSkeleton(ProjectName(opts.Path), now))}}}
		out = append(out, feature.Action{Title: title, Kind: feature.KindInterview, Fix: fix})
	}
	if ch.ScratchPad != nil {
		opts.FinishNow = true
		if f := Next(text, true, opts); f.Type == TypeSuccess {
			step("Finish interview", feature.CmdInterviewFinish)
		}
	}
	return out
}

// nextTopic names what the next step is about: the question's topic, or
// the section a skip records.
func nextTopic(r Response) string {
	if r.Type == TypeSkip {
		return "records a skip of " + r.Topic
	}
	return fmt.Sprintf("Q%d %s", r.Metadata.QuestionNumber, r.Topic)
}
