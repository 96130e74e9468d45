package interview

import (
	"context"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Step is the next interview action carried out, as a user asks for it from
// the editor or with `charter-lsp interview --apply`.
type Step struct {
	// Response is where the interview stands after the step: the question
	// now asked (or still awaiting its answer), the success, or the error.
	Response Response
	// Applied are the responses acted on, in order: each skip recorded,
	// then the question inserted or the charter finished.
	Applied []Response
	// Edits turn the original text into Text: one edit per action when
	// there was one action, else one edit covering what changed (later
	// actions refer to text the original never held).
	Edits []Edit
	Text  []byte
	// Cursor is where the answer goes in Text (-1: nowhere).
	Cursor int
}

// NextFunc decides the next interview action on text: the built-in engine
// (Next), or an interview agent behind the same contract
// (interview/agent). Its error stops the step (a cancelled context); an
// agent that fails answers with the built-in's response instead.
type NextFunc func(ctx context.Context, text []byte, exists bool, opts Options) (Response, error)

// Builtin is Next as a NextFunc.
func Builtin(_ context.Context, text []byte, exists bool, opts Options) (Response, error) {
	return Next(text, exists, opts), nil
}

// Advance carries out the next interview action: a skip is recorded and
// the interview asked again, until it yields a question (inserted), a
// success (the charter finished) or an error. A pending question needs no
// edit; the cursor goes to its answer. Each skip settles a section, so the
// loop ends; ctx stops it between actions.
func Advance(ctx context.Context, text []byte, exists bool, opts Options) (Step, error) {
	return AdvanceWith(ctx, text, exists, opts, Builtin)
}

// AdvanceWith is Advance with next deciding each action: whoever decides,
// the edits are the engine's (PlanFor), so an agent's question, skip or
// finished charter is written exactly as the built-in engine's.
func AdvanceWith(ctx context.Context, text []byte, exists bool, opts Options, next NextFunc) (Step, error) {
	if err := ctx.Err(); err != nil {
		return Step{Text: text, Cursor: -1}, err
	}
	r, err := next(ctx, text, exists, opts)
	if err != nil {
		return Step{Text: text, Cursor: -1}, err
	}
	step := Step{Response: r, Text: text, Cursor: -1}
	if r.Pending != nil {
		step.Cursor = pendingAnswer(r)
		return step, nil
	}
	for i := 0; i < 2*len(Topics)+1; i++ {
		if err := ctx.Err(); err != nil {
			return step, err
		}
		p, err := PlanFor(step.Text, r, opts.Now)
		if err != nil {
			return step, err
		}
		if len(p.Edits) == 0 {
			break
		}
		if len(step.Applied) == 0 {
			step.Edits = p.Edits
		}
		step.Text = Apply(step.Text, p.Edits)
		step.Applied = append(step.Applied, r)
		step.Cursor = p.Cursor
		if r.Type != TypeSkip {
			break
		}
		opts.Mode = "" // the file now has a scratch pad: resume it
		if r, err = next(ctx, step.Text, true, opts); err != nil {
			return step, err
		}
		step.Response = r
	}
	if len(step.Applied) > 1 {
		step.Edits = []Edit{Diff(text, step.Text)}
	}
	return step, nil
}

// pendingAnswer is where the answer to a pending question goes.
func pendingAnswer(r Response) int {
	e := r.Pending
	if e.HasAnswer {
		return e.AnswerSpan.End
	}
	return e.AskedSpan.End
}

// Diff is one edit turning old into new: the region between their common
// prefix and suffix, widened so it never splits a UTF-8 sequence or a CRLF
// line ending (positions there have no LSP equivalent).
func Diff(old, new []byte) Edit {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	for p > 0 && ((p < len(old) && !utf8.RuneStart(old[p])) || old[p-1] == '\r') {
		p--
	}
	q := 0
	for q < len(old)-p && q < len(new)-p && old[len(old)-1-q] == new[len(new)-1-q] {
		q++
	}
	for q > 0 && (!utf8.RuneStart(old[len(old)-q]) || (old[len(old)-q] == '\n' && len(old)-q > p && old[len(old)-q-1] == '\r')) {
		q--
	}
	return Edit{Span: source.Span{Start: p, End: len(old) - q}, NewText: string(new[p : len(new)-q])}
}
