package interview

import (
	"errors"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// DefaultSkipReason is written when the user skips without saying why.
const DefaultSkipReason = "Skipped by the user."

// ErrNoPendingQuestion: SkipPending found nothing awaiting an answer.
var ErrNoPendingQuestion = errors.New("interview: no question is awaiting an answer")

// SkipPending marks the question awaiting an answer as skipped by the user:
// its empty "**Answer**:" line becomes "**Skipped**: <reason>" (or the line
// is added after "**Asked**:"). The section is then never asked again, as
// for any entry. The cursor is -1.
func SkipPending(text []byte, reason string) (Plan, error) {
	ch := rp1.Parse(text)
	e := ch.ScratchPad.PendingEntry()
	if e == nil {
		return Plan{Cursor: -1}, ErrNoPendingQuestion
	}
	reason = oneLine(reason)
	if reason == "" {
		reason = DefaultSkipReason
	}
	field := "**Skipped**: " + reason
	ix := ch.Index
	if e.HasAnswer {
		line := ix.LineSpan(ix.Line(e.AnswerSpan.Start))
		// The answer is empty (the entry is pending), so its line is only
		// the field marker: replace the whole line, keeping its ending.
		return Plan{Edits: []Edit{{Span: line, NewText: field}}, Cursor: -1}, nil
	}
	end := ix.LineEnd(ix.Line(e.AskedSpan.End))
	if end < e.AskedSpan.End {
		end = e.AskedSpan.End
	}
	return Plan{Edits: []Edit{{Span: source.Span{Start: end, End: end}, NewText: eol(text) + field}}, Cursor: -1}, nil
}
