package charterfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Edits that move a charter's work forward, as the editor offers them:
// set a criterion's status where upstream reads it, rewrite Evidence lines
// as Status lines, mark a phase done. Each returns a diag.Fix against the
// file the Charter was parsed from; the file is the only record (no
// sidecar is written).

// ErrCRLF: in a CRLF file, upstream reads no Status, Evidence or Depends
// line that has a value (criterion-line-crlf), so writing one changes
// nothing; the line endings must be LF first.
var ErrCRLF = errors.New("pi-charter reads no Status or Evidence line with a value in a CRLF file: convert the line endings to LF first")

// SetStatus is the edit that gives criterion id the status tok: the token
// of its Status line is replaced (the note kept); a legacy Evidence line
// is rewritten as a Status line; a criterion without one gets a Status
// line after its text. In an ADR-0014 charter the Evidence line is
// written, with its tokens (pass, fail, none).
func (c *Charter) SetStatus(id string, tok Status) (*diag.Fix, error) {
	cr, err := c.statusTarget(id, tok)
	if err != nil {
		return nil, err
	}
	t := c.text
	title := fmt.Sprintf("Set %s status: %s", id, tok)
	if c.Generation == FI14 {
		title = fmt.Sprintf("Set %s evidence: %s", id, tok)
	}
	sl := cr.StatusLine
	switch {
	case sl != nil && cr.Legacy:
		return edit(title, t.lineContentSpan(sl.line), statusLine(tok, legacyNote(t.line(sl.line)))), nil
	case sl != nil && sl.TokenSpan.Len() == 0:
		at := sl.ValueSpan.Start
		if at > 0 && t.src[at-1] == ':' {
			return edit(title, source.Span{Start: at, End: at}, " "+string(tok)), nil
		}
		return edit(title, source.Span{Start: at, End: at}, string(tok)), nil
	case sl != nil && slices.Contains(StatusTokens(c.Generation, sl.Label), Status(strings.ToLower(string(t.src[sl.TokenSpan.Start:sl.TokenSpan.End])))):
		return edit(title, sl.TokenSpan, string(tok)), nil
	case sl != nil:
		// An unknown token ("done", "in progress"): the value is replaced,
		// keeping what follows a dash as the note.
		value := strings.TrimRight(string(t.src[sl.ValueSpan.Start:sl.ValueSpan.End]), "\r")
		next := string(tok)
		if note := afterDash(value); note != "" {
			next += " — " + note
		}
		return edit(title, source.Span{Start: sl.ValueSpan.Start, End: sl.ValueSpan.Start + len(value)}, next), nil
	}
	label := "Status"
	if c.Generation == FI14 {
		label = "Evidence"
	}
	at := t.lineContentSpan(lastTextLine(t, cr)).End
	return edit(title, source.Span{Start: at, End: at}, t.lineBreak()+label+": "+string(tok)), nil
}

// statusTarget is criterion id, when tok is a status its generation reads
// and the file's line endings let upstream read a Status line.
func (c *Charter) statusTarget(id string, tok Status) (*Criterion, error) {
	cr := c.Criterion(id)
	if cr == nil {
		return nil, fmt.Errorf("no criterion %s", id)
	}
	if !slices.Contains(StatusTokens(c.Generation, "Status"), tok) {
		return nil, fmt.Errorf("%q is not a status of %s (%s)", tok, c.Generation.Title(), tokenList(StatusTokens(c.Generation, "Status")))
	}
	if c.text.lineBreak() == "\r\n" {
		return nil, ErrCRLF
	}
	return cr, nil
}

// afterDash is the text after the first dash that separates words in value
// (" — ", " – ", " - "), trimmed; "" when there is none.
func afterDash(value string) string {
	for _, sep := range []string{" — ", " – ", " - ", "—", "–"} {
		if i := strings.Index(value, sep); i > 0 {
			return jsTrim(value[i+len(sep):])
		}
	}
	return ""
}

// lastTextLine is the block's last line that is not blank.
func lastTextLine(t *text, cr *Criterion) int {
	last := cr.head
	for j := cr.head + 1; j < cr.end; j++ {
		if jsTrim(t.line(j)) != "" {
			last = j
		}
	}
	return last
}

// statusLine writes "Status: tok — note" (without the dash when there is no
// note).
func statusLine(tok Status, note string) string {
	if note == "" {
		return "Status: " + string(tok)
	}
	return "Status: " + string(tok) + " — " + note
}

// legacyNote is the note on an Evidence line itself (the lines after it,
// which ADR-0014 adds to the note, stay where they are).
func legacyNote(l string) string {
	l = strings.TrimSuffix(l, "\r")
	_, at, ok := labelLine(l, "Evidence")
	if !ok {
		return ""
	}
	tok, noteAt, ok := statusValue(l[at:])
	if !ok {
		return ""
	}
	if _, known := readToken(tok, EvidenceLineTokens); !known {
		return jsTrim(l[at:]) // an unknown token: the whole value is the note, as upstream reads it
	}
	return jsTrim(l[at+noteAt:])
}

// legacyStatus is the Status token an Evidence value reads as (Current):
// none (or nothing, or an unknown token) is pending.
func legacyStatus(l string) Status {
	l = strings.TrimSuffix(l, "\r")
	_, at, ok := labelLine(l, "Evidence")
	if !ok {
		return StatusPending
	}
	tok, _, ok := statusValue(l[at:])
	if s, known := readToken(tok, EvidenceLineTokens); ok && known {
		return s.Current()
	}
	return StatusPending
}

// EvidenceToStatus rewrites the Evidence lines upstream reads as Status
// lines (ADR-0015): none becomes pending, pass and fail stay, the note on
// the line is kept. The lines after an Evidence line, which ADR-0014 adds
// to its note, stay where they are and become the criterion's text. With
// id set, only that criterion's line; with "", every criterion's. nil when
// there is nothing to rewrite.
func (c *Charter) EvidenceToStatus(id string) (*diag.Fix, error) {
	if !c.Generation.FileInterface() {
		return nil, nil
	}
	t := c.text
	if t.lineBreak() == "\r\n" {
		return nil, ErrCRLF
	}
	var edits []diag.Edit
	for _, cr := range c.Criteria {
		sl := cr.StatusLine
		if (id != "" && cr.ID != id) || sl == nil || sl.Label != "Evidence" {
			continue
		}
		l := t.line(sl.line)
		edits = append(edits, diag.Edit{Span: t.lineContentSpan(sl.line), NewText: statusLine(legacyStatus(l), legacyNote(l))})
	}
	if len(edits) == 0 {
		return nil, nil
	}
	title := "Rewrite every Evidence line as a Status line (ADR-0015)"
	if id != "" {
		title = fmt.Sprintf("Rewrite %s's Evidence line as a Status line", id)
	}
	return &diag.Fix{Title: title, Edits: edits}, nil
}

// MarkPhaseDone is the edit that marks phase n (its position, 1-based)
// done: its suffix becomes " — done" (a suffix in a shape upstream does not
// read is replaced). When that leaves no phase current, the next phase
// that is not done is marked current, so the charter says where work
// stands.
func (c *Charter) MarkPhaseDone(n int) (*diag.Fix, error) {
	if c.Generation != PH || n < 1 || n > len(c.Phases) {
		return nil, fmt.Errorf("no phase %d", n)
	}
	ph := c.Phases[n-1]
	if ph.Status == PhaseDone {
		return nil, fmt.Errorf("phase %d is done already", n)
	}
	edits := []diag.Edit{setSuffix(ph, PhaseDone)}
	after := ParsePhases(applyEdits(c.text.src, edits))
	if cur, _ := after.CurrentPhase(); cur == nil {
		for _, next := range c.Phases[n:] {
			if next.Status != PhaseDone {
				edits = append(edits, setSuffix(next, PhaseCurrent))
				break
			}
		}
	}
	title := fmt.Sprintf("Mark phase %s done", phaseNumber(ph))
	if len(edits) > 1 {
		title += ", the next current"
	}
	return &diag.Fix{Title: title, Edits: edits}, nil
}

// setSuffix writes " — status" at the end of a phase's title.
func setSuffix(ph *Phase, status PhaseStatus) diag.Edit {
	suffix := " — " + string(status)
	if ph.Explicit {
		return diag.Edit{Span: ph.SuffixSpan, NewText: suffix}
	}
	if _, before, _ := suffixVariant(ph); before != "" {
		return diag.Edit{Span: ph.TitleSpan, NewText: jsTrimEnd(before) + suffix}
	}
	return diag.Edit{Span: source.Span{Start: ph.TitleSpan.End, End: ph.TitleSpan.End}, NewText: suffix}
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src []byte, edits []diag.Edit) []byte {
	es := slices.Clone(edits)
	slices.SortFunc(es, func(a, b diag.Edit) int { return a.Span.Start - b.Span.Start })
	var out []byte
	at := 0
	for _, e := range es {
		out = append(out, src[at:e.Span.Start]...)
		out = append(out, e.NewText...)
		at = e.Span.End
	}
	return append(out, src[at:]...)
}
