package interview

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// skeleton is upstream's CREATE skeleton (SPEC §1) up to the scratch pad.
func skeleton(now time.Time) string {
	return "# Project Charter: [To Be Determined]\n\n" +
		"**Version**: 1.0.0\n" +
		"**Status**: Draft\n" +
		"**Created**: " + now.UTC().Format("2006-01-02") + "\n\n"
}

// padOpen is the scratch pad heading and metadata, ending in a blank line.
func padOpen(mode string, now time.Time) string {
	return "## Scratch Pad\n\n" +
		"<!-- Interview state - will be removed upon completion -->\n" +
		"<!-- Mode: " + mode + " -->\n" +
		"<!-- Started: " + now.UTC().Format("2006-01-02T15:04:05Z") + " -->\n\n"
}

const endMarker = "<!-- End scratch pad -->"

// Start begins an interview without asking anything: the CREATE skeleton for
// an empty or missing file, else the scratch pad (with the mode written in
// it) appended after the charter's last line. A file that already has a
// scratch pad needs no edit.
func Start(text []byte, mode string, now time.Time) Plan {
	p, _ := insertBlock(text, mode, now, "")
	return p
}

// AskNext appends the question of a next_question response as a new
// "### Q{N}: {Topic}" entry with an empty answer, before the end marker,
// starting the scratch pad (or the whole skeleton) when needed. The cursor
// lands after "**Answer**: ". A response repeating a pending question needs
// no edit and is refused, as is any other type.
func AskNext(text []byte, r Response, now time.Time) (Plan, error) {
	if r.Type != TypeNextQuestion || r.Pending != nil {
		return Plan{Cursor: -1}, fmt.Errorf("interview: %s response has no question to append", describe(r))
	}
	block := fmt.Sprintf("### Q%d: %s\n**Asked**: %s\n**Answer**: ",
		r.Metadata.QuestionNumber, oneLine(r.Topic), oneLine(r.NextQuestion))
	return insertBlock(text, r.Mode, now, block)
}

// RecordSkip writes a skip response as a "**Skipped**: <reason>" entry.
func RecordSkip(text []byte, r Response, now time.Time) (Plan, error) {
	if r.Type != TypeSkip {
		return Plan{Cursor: -1}, fmt.Errorf("interview: %s response is not a skip", describe(r))
	}
	block := fmt.Sprintf("### Q%d: %s\n**Skipped**: %s",
		r.Metadata.QuestionNumber, oneLine(r.Topic), oneLine(r.Message))
	p, err := insertBlock(text, r.Mode, now, block)
	p.Cursor = -1
	return p, err
}

func describe(r Response) string {
	if r.Type == TypeNextQuestion && r.Pending != nil {
		return "a pending-question"
	}
	if r.Type == "" {
		return "an empty"
	}
	return "a " + r.Type
}

// oneLine keeps a heading or field value on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// insertBlock inserts block (which may be "") as the last scratch pad entry.
// The cursor is the end of block in the new text.
func insertBlock(text []byte, mode string, now time.Time, block string) (Plan, error) {
	nl := eol(text)
	ch := rp1.Parse(text)
	pad := ch.ScratchPad
	var e Edit
	var cursorIn int // offset of the cursor within e.NewText
	switch {
	case pad != nil:
		if block == "" {
			return Plan{Cursor: -1}, nil
		}
		off := pad.Span.End
		if pad.HasEndMarker {
			off = pad.EndSpan.Start
		}
		sep := separation(text, off, nl)
		after := nl
		if pad.HasEndMarker || off < len(text) {
			after = nl + nl // a blank line before the end marker or next heading
		}
		e = Edit{Span: source.Span{Start: off, End: off}, NewText: sep + withEOL(block, nl) + after}
		cursorIn = len(sep) + len(withEOL(block, nl))
	default:
		if mode != ModeCreate {
			mode = ModeUpdate
		}
		var head string
		start := len(text)
		if len(bytes.TrimSpace(text)) == 0 {
			start, head = 0, skeleton(now) // whitespace only: the whole skeleton
		} else {
			head = separation(text, len(text), "\n")
		}
		head += padOpen(mode, now)
		body := ""
		if block != "" {
			body = block
		}
		cursorText := withEOL(head+body, nl)
		tail := endMarker + "\n"
		if block != "" {
			tail = "\n\n" + tail
		}
		e = Edit{Span: source.Span{Start: start, End: len(text)}, NewText: cursorText + withEOL(tail, nl)}
		if start == len(text) {
			e.Span.End = start
		}
		cursorIn = len(cursorText)
	}
	p := Plan{Edits: []Edit{e}, Cursor: e.Span.Start + cursorIn}
	if block == "" {
		p.Cursor = -1
	}
	return p, nil
}
