package charterfile

import (
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// A file-interface criterion says how it is checked with a Command: line
// of its own (ours: upstream reads the line as part of the body, so it
// changes nothing there). Like Depends:, the label is matched in column 0
// ignoring case, and the last such line of the block wins; in an ADR-0014
// charter only lines before the Evidence line count, since that line and
// everything after it is the evidence note.

// CommandLabel is the label of a criterion's command line.
const CommandLabel = "Command"

// Verification is the command that verifies criterion id, from its
// Command: line, and whether it can pass on zero tests (pi.Weakness: the
// same rules as a VAL's Command: line). A criterion without one has
// nothing to run; the error says so.
func (c *Charter) Verification(id string) (pi.Verification, error) {
	if !c.Generation.FileInterface() {
		return pi.Verification{}, fmt.Errorf("a %s charter has no criteria to verify", c.Generation.Title())
	}
	cr := c.Criterion(id)
	if cr == nil {
		return pi.Verification{}, fmt.Errorf("no criterion %s", id)
	}
	return c.VerificationOf(cr)
}

// VerificationOf is Verification of the criterion cr of c, for a caller
// that holds it already: looking each criterion up by id scans them all,
// and the status of 75,000 criteria took 11.6 s doing so.
func (c *Charter) VerificationOf(cr *Criterion) (pi.Verification, error) {
	cmd := c.commandOf(cr)
	if cmd == "" {
		return pi.Verification{}, fmt.Errorf("%s has no Command: line: add one (`Command: <what checks it>`) to verify it from the editor", cr.ID)
	}
	v := pi.Verification{Command: cmd}
	if w, weak := pi.Weakness(cmd); weak {
		v.Weak = &w
	}
	return v, nil
}

// commandOf is the value of cr's last Command: line, trimmed; "" when
// there is none.
func (c *Charter) commandOf(cr *Criterion) string {
	t := c.text
	end := cr.end
	if c.Generation == FI14 && cr.StatusLine != nil {
		end = cr.StatusLine.line
	}
	cmd := ""
	for j := cr.head + 1; j < end; j++ {
		if v, _, ok := labelLine(strings.TrimSuffix(t.line(j), "\r"), CommandLabel); ok {
			cmd = jsTrim(v)
		}
	}
	return cmd
}

// SetStatusNote is the edit that records a verification in criterion id:
// its Status line (ADR-0014: its Evidence line) becomes "Status: tok —
// note", replacing the token and the note on the line; a legacy Evidence
// line is rewritten as a Status line; a criterion without one gets the
// line after its text. The note is made one line (upstream reads one line
// of a Status value). In an ADR-0014 charter the lines after the Evidence
// line stay where they are (upstream adds them to the note).
func (c *Charter) SetStatusNote(id string, tok Status, note string) (*diag.Fix, error) {
	cr, err := c.statusTarget(id, tok)
	if err != nil {
		return nil, err
	}
	t := c.text
	label := "Status"
	if c.Generation == FI14 {
		label = "Evidence"
	}
	line := label + ": " + string(tok)
	if note = oneLine(note); note != "" {
		line += " — " + note
	}
	title := fmt.Sprintf("Set %s %s: %s", id, strings.ToLower(label), tok)
	if sl := cr.StatusLine; sl != nil {
		return edit(title, t.lineContentSpan(sl.line), line), nil
	}
	at := t.lineContentSpan(lastTextLine(t, cr)).End
	return edit(title, source.Span{Start: at, End: at}, t.lineBreak()+line), nil
}

// oneLine joins s's lines with spaces and trims it.
func oneLine(s string) string {
	return jsTrim(strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' }), " "))
}
