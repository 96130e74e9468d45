package interview

import (
	"bytes"
	"sort"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Edit replaces Span of the original text with NewText; an empty span
// inserts. It is the diagnostics' edit type, so a quick fix and an interview
// step are applied the same way.
type Edit = diag.Edit

// Plan is the edits for one interview action, against the original text, and
// where the cursor belongs afterwards: a byte offset in the new text (after
// "**Answer**: " for a new question), or -1.
type Plan struct {
	Edits  []Edit
	Cursor int
}

// Apply returns text with edits applied. Edits refer to the original text
// and must not overlap; they may come in any order.
func Apply(text []byte, edits []Edit) []byte {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
	var out bytes.Buffer
	at := 0
	for _, e := range es {
		start, end := clamp(e.Span.Start, len(text)), clamp(e.Span.End, len(text))
		if start < at {
			start = at // overlapping edits: the earlier one wins
		}
		if end < start {
			end = start
		}
		out.Write(text[at:start])
		out.WriteString(e.NewText)
		at = end
	}
	out.Write(text[at:])
	return out.Bytes()
}

func clamp(n, max int) int {
	if n < 0 {
		return 0
	}
	if n > max {
		return max
	}
	return n
}

// merge sorts edits and joins those that touch, so a caller sees each
// changed region once. Insertions at the same offset keep their order.
func merge(edits []Edit) []Edit {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
	var out []Edit
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].Span.End >= e.Span.Start {
			out[n-1].NewText += e.NewText
			if e.Span.End > out[n-1].Span.End {
				out[n-1].Span.End = e.Span.End
			}
			continue
		}
		out = append(out, e)
	}
	return out
}

// eol is the file's line ending, withEOL text in it (the rule is source's).
var (
	eol     = source.LineEnding
	withEOL = source.WithLineEnding
)

// separation is what to put before a block inserted at off so that a blank
// line separates it from earlier content: nothing at the start of the file
// or after a blank line, one line ending after a complete line, two in
// mid-line.
func separation(text []byte, off int, nl string) string {
	before := text[:off]
	trimmed := bytes.TrimRight(before, " \t\r\n")
	if len(trimmed) == 0 {
		return ""
	}
	switch bytes.Count(before[len(trimmed):], []byte("\n")) {
	case 0:
		return nl + nl
	case 1:
		return nl
	}
	return ""
}

// blankStart moves off back over whitespace-only lines before it, stopping
// after the last line ending that follows content.
func blankStart(text []byte, off int) int {
	i := off
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n' || text[i-1] == '\r') {
		i--
	}
	// keep the line ending of the last content line
	if i < off && text[i] == '\r' {
		i++
	}
	if i < off && text[i] == '\n' {
		i++
	}
	return i
}

// PlanFor returns the edits that carry out r: AskNext for a new question,
// RecordSkip for a skip, Finish for success. Errors and pending questions
// need no edit (an empty plan).
func PlanFor(text []byte, r Response, now time.Time) (Plan, error) {
	switch {
	case r.Type == TypeNextQuestion && r.Pending == nil:
		return AskNext(text, r, now)
	case r.Type == TypeSkip:
		return RecordSkip(text, r, now)
	case r.Type == TypeSuccess:
		return Finish(text, r, now)
	}
	return Plan{Cursor: -1}, nil
}
