package interview

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ErrNotPending: the question an answer was meant for is not the one
// awaiting an answer (the charter changed since it was asked).
var ErrNotPending = errors.New("interview: that question is not awaiting an answer")

// AnswerPending writes answer into the question awaiting one, as the user
// would type it after "**Answer**: " (the editors' conversation sends what
// the user typed in an input box). number, when not 0, is the question the
// answer was given to: another pending question refuses it
// (ErrNotPending). A multi-line answer keeps its lines; a line that would
// end the entry or the scratch pad (a heading, a field, the end marker)
// is escaped so the answer stays one answer. The cursor is -1.
func AnswerPending(text []byte, number int, answer string) (Plan, error) {
	ch := rp1.Parse(text)
	e := ch.ScratchPad.PendingEntry()
	switch {
	case e == nil:
		return Plan{Cursor: -1}, ErrNoPendingQuestion
	case number != 0 && e.Number != number:
		return Plan{Cursor: -1}, fmt.Errorf("%w: Q%d is (%s)", ErrNotPending, e.Number, e.Topic)
	}
	body := answerBody(answer)
	if body == "" {
		return Plan{Cursor: -1}, errors.New("interview: an empty answer answers nothing; skip the question instead")
	}
	nl := eol(text)
	body = withEOL(body, nl)
	if e.HasAnswer {
		// The answer is empty: its value starts (and ends) after
		// "**Answer**:" and its spaces.
		at := e.AnswerSpan.Start
		lead := ""
		if at > 0 && text[at-1] != ' ' && text[at-1] != '\t' {
			lead = " " // "**Answer**:" with no space after it
		}
		return Plan{Edits: []Edit{{Span: source.Span{Start: at, End: at}, NewText: lead + body}}, Cursor: -1}, nil
	}
	ix := ch.Index
	end := ix.LineEnd(ix.Line(e.AskedSpan.End))
	if end < e.AskedSpan.End {
		end = e.AskedSpan.End
	}
	return Plan{Edits: []Edit{{Span: source.Span{Start: end, End: end}, NewText: nl + "**Answer**: " + body}}, Cursor: -1}, nil
}

// answerBody is answer as it goes into the scratch pad: trimmed, line
// endings normalised; on the lines after the first (which follows
// "**Answer**: "), headings demoted below the entry's (###) and a line
// that would read as a field or the pad's end marker escaped with a
// backslash (markdown shows it as typed).
func answerBody(answer string) string {
	s := strings.TrimSpace(strings.ReplaceAll(answer, "\r\n", "\n"))
	first, rest, multi := strings.Cut(s, "\n")
	if !multi {
		return first
	}
	lines := append([]string{first}, strings.Split(rp1.DemoteHeadings(rest, 3), "\n")...)
	for i, l := range lines[1:] {
		i++
		t := strings.ToLower(strings.TrimSpace(l))
		for _, p := range []string{"**asked", "**answer", "**skipped", "<!--"} {
			if strings.HasPrefix(t, p) {
				lines[i] = `\` + strings.TrimLeft(l, " \t")
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}
