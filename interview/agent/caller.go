package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview"
)

// Interviewer is the seed's caller for one interview step (one thing the
// user asked for): the agent decides each action, the engine writes it.
// After a failure it asks the agent nothing more in the step: the built-in
// engine answers, and Fallback says why.
type Interviewer struct {
	Config Config
	// Progress, when set, is told about each call while it runs.
	Progress Progress
	// Log, when set, is told about each call once it ended.
	Log func(c Call, out Output, err error)

	// Calls counts the calls made.
	Calls int
	// Failed is the failure that made the built-in engine answer; nil
	// while the agent answered every call.
	Failed *Error
}

// Advance carries out the next interview action with the agent deciding,
// as interview.Advance does with the built-in engine (each skip recorded,
// then the question asked or the charter finished), with the same edits.
// Its error is the context's: the user stopped the step, nothing is to be
// written.
func (iv *Interviewer) Advance(ctx context.Context, text []byte, exists bool, opts interview.Options) (interview.Step, error) {
	return interview.AdvanceWith(ctx, text, exists, opts, iv.Next)
}

// Next is the agent's interview.NextFunc. What the caller knows without
// asking is not asked: a question awaiting its answer is repeated, an
// explicit finish and a file that cannot be interviewed (not a charter, a
// skeleton charter, RESUME without a scratch pad) are the built-in
// engine's. Everything else is the agent's decision, checked against the
// contract; the question number is the scratch pad's next (the pad is the
// state), the topic rp1's caller writes (map_gap_to_topic of the first gap;
// the Brain Dump for the first question of a CREATE interview).
func (iv *Interviewer) Next(ctx context.Context, text []byte, exists bool, opts interview.Options) (interview.Response, error) {
	b := interview.Next(text, exists, opts)
	if iv.Failed != nil || b.Type == interview.TypeError || b.Pending != nil || opts.FinishNow {
		return b, nil
	}
	c := Call{Contract: Stateless, Text: text, Exists: exists, Path: opts.Path, Mode: b.Mode}
	var r interview.Response
	out, err := iv.call(ctx, c, &r)
	if err == nil {
		r = adopt(r, b, text, opts)
	}
	if iv.Log != nil {
		iv.Log(c, out, err)
	}
	if err != nil {
		return b, iv.fail(ctx, err)
	}
	return r, nil
}

// Finalize runs the agent as rp1's finalizer on a skeleton charter (the
// optional finalizer runs when a fresh read shows no gap) and checks its
// answer against the charter (rp1.CheckFinalizerAnswer: key order,
// status, gaps, artifact). It returns the agent's answer, its artifact the
// charter's real path; or, when the agent failed or disagrees, the
// built-in finalizer's (Fallback says why).
func (iv *Interviewer) Finalize(ctx context.Context, text []byte, path string) (rp1.FinalizerResponse, error) {
	want := rp1.Finalize(rp1.Parse(text), path)
	if iv.Failed != nil {
		return want, nil
	}
	c := Call{Contract: Finalizer, Text: text, Exists: true, Path: path, Mode: interview.ModeUpdate}
	var r rp1.FinalizerResponse
	out, err := iv.call(ctx, c, &r)
	if err == nil {
		// The agent read a copy: its artifact is the copy's path.
		if ds := rp1.CheckFinalizerAnswer(out.Stdout, rp1.Finalize(rp1.Parse(text), out.CharterPath)); len(ds) > 0 {
			err = &Error{Kind: KindContract, Reason: "answered what the charter does not say: " + findings(ds)}
		}
	}
	if iv.Log != nil {
		iv.Log(c, out, err)
	}
	if err != nil {
		return want, iv.fail(ctx, err)
	}
	r.Artifact = path
	return r, nil
}

// call runs the agent once and decodes its answer into v.
func (iv *Interviewer) call(ctx context.Context, c Call, v any) (Output, error) {
	iv.Calls++
	out, err := run(ctx, iv.Config, c, iv.Progress)
	if err != nil {
		return out, err
	}
	return out, decode(out.Stdout, c.Contract, v)
}

// fail records why the built-in engine answers; a cancelled step is the
// context's error instead.
func (iv *Interviewer) fail(ctx context.Context, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Kind: KindContract, Reason: err.Error()}
	}
	if e.Kind == KindCancelled || ctx.Err() != nil {
		return context.Cause(ctx)
	}
	iv.Failed = e
	return nil
}

// Fallback says why the built-in engine answered instead of the agent,
// for the user; "" when it did not.
func (iv *Interviewer) Fallback() string {
	if iv.Failed == nil {
		return ""
	}
	return fmt.Sprintf("The interview agent (%s) %s; the built-in interviewer answered instead.", iv.Config.Name(), iv.Failed.Error())
}

// adopt turns the agent's answer into the engine's Response for the text,
// b being the built-in engine's: the mode, the question number (the
// scratch pad's next) and, when the agent left it out, the budget. The
// entry's topic is rp1's caller's: the Brain Dump for the first question
// of a CREATE interview, map_gap_to_topic(gaps_remaining[0]) for a
// question, the section the reason names for a skip; when the agent asks
// (or skips) exactly what the engine would, the engine's own.
func adopt(r, b interview.Response, text []byte, opts interview.Options) interview.Response {
	r.Mode = b.Mode
	r.Metadata.QuestionNumber = b.Metadata.QuestionNumber
	if r.Metadata.TotalQuestions == 0 {
		r.Metadata.TotalQuestions = b.Metadata.TotalQuestions
	}
	if r.Metadata.GapsRemaining == nil {
		r.Metadata.GapsRemaining = []rp1.SectionID{}
	}
	gaps := r.Metadata.GapsRemaining
	switch r.Type {
	case interview.TypeNextQuestion:
		switch {
		case b.Type == r.Type && strings.TrimSpace(b.NextQuestion) == strings.TrimSpace(r.NextQuestion):
			r.Section, r.Topic = b.Section, b.Topic
		case b.Topic == interview.BrainDumpTopic:
			// The seed's Q1 of a CREATE interview: what the answer covers
			// follows from what it says (rp1.QA), as for the engine's.
			r.Topic = interview.BrainDumpTopic
		case len(gaps) > 0:
			r.Section, r.Topic = gaps[0], interview.Topics[gaps[0]]
		default:
			r.Topic = "Follow-up"
		}
	case interview.TypeSkip:
		if b.Type == r.Type && strings.TrimSpace(b.Message) == strings.TrimSpace(r.Message) {
			r.Section, r.Topic = b.Section, b.Topic
			break
		}
		// rp1's caller takes the skip's topic "from message": the section
		// the reason names first, as a "### Qn: Skipped" entry reads.
		e := &rp1.Entry{Topic: "Skipped", HasSkipped: true, Skipped: r.Message}
		if ids := e.Sections(); len(ids) > 0 {
			r.Section, r.Topic = ids[0], interview.Topics[ids[0]]
		} else {
			r.Topic = "Skipped"
		}
	case interview.TypeSuccess:
		r.CharterComplete = true
		r.Title = interview.TitleFor(text, opts.Path)
	case interview.TypeError:
		r.Metadata.QuestionNumber = 0
	}
	return r
}

// findings joins diagnostics' messages, shortened.
func findings(ds []diag.Diagnostic) string {
	var msgs []string
	for i, d := range ds {
		if i == 3 {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(ds)-3))
			break
		}
		msgs = append(msgs, d.Message)
	}
	return strings.Join(msgs, "; ")
}

// Problems are what check reports, at warning or above, on a charter an
// agent finished: its content is written verbatim, then checked. A
// one-sentence section (section-partial) is left out: finishing may leave
// one, a hint an UPDATE interview follows up on.
func Problems(text []byte, path string, cfg analysis.Config) []diag.Diagnostic {
	var out []diag.Diagnostic
	ch := rp1.Parse(text)
	ds, _ := analysis.CheckRP1(context.Background(), ch, cfg) // no ctx: only a cancelled one errs
	for _, d := range analysis.Finish(ds, path, ch.Index, cfg) {
		if (d.Severity == diag.SeverityError || d.Severity == diag.SeverityWarning) && d.Code != diag.SectionPartial {
			out = append(out, d)
		}
	}
	return out
}
