package interview

import (
	"fmt"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Finish writes a success response into the charter (SPEC §2, Finalize):
// each section's content under its heading (replacing the body of a section
// that is not COMPLETE, creating a missing heading in priority order next to
// its neighbours, at the level the charter writes its sections), the scratch
// pad removed through its end marker, a placeholder title replaced by the
// project's name (r.Title), and **Last Updated** set to now's date if
// present. **Status** is what the finished text calls for
// (rp1.Charter.ExpectedStatus): Complete when every section is written,
// Draft while one is left _TBD_, so a finished charter never contradicts
// charter-lsp check. COMPLETE sections are left as they are.
func Finish(text []byte, r Response, now time.Time) (Plan, error) {
	if r.Type != TypeSuccess || r.CharterContent == nil {
		return Plan{Cursor: -1}, fmt.Errorf("interview: %s response has no charter content", describe(r))
	}
	nl := eol(text)
	ch := rp1.Parse(text)
	level := ch.SectionLevel()
	keep := map[rp1.SectionID]bool{}
	for _, id := range r.Keep {
		keep[id] = true
	}
	var edits []Edit

	for i, id := range rp1.Priority {
		sec := ch.Section(id)
		if keep[id] || (sec != nil && sec.Status == rp1.StatusComplete) {
			continue
		}
		at := level
		if sec != nil {
			at = sec.Level
		}
		body := withEOL(rp1.DemoteHeadings(r.CharterContent.Get(id), at), nl)
		if body == "" {
			body = TBD
		}
		if sec != nil {
			b := sec.BodySpan
			lead := nl // a blank line after the heading
			if b.Start > 0 && text[b.Start-1] != '\n' && text[b.Start-1] != '\r' {
				lead = nl + nl // the heading is the last line, without an ending
			}
			edits = append(edits, Edit{Span: source.Span{Start: b.Start, End: b.End}, NewText: lead + body + nl + nl})
			continue
		}
		off := newSectionOffset(ch, i, text)
		heading := strings.Repeat("#", level) + " " + rp1.CanonicalHeading[id]
		edits = append(edits, Edit{Span: source.Span{Start: off, End: off},
			NewText: separation(text, off, nl) + heading + nl + nl + body + nl + nl})
	}

	if pad := ch.ScratchPad; pad != nil {
		end := pad.Span.End
		if pad.HasEndMarker {
			end = skipBlankLines(text, pad.EndSpan.End)
		}
		edits = append(edits, Edit{Span: source.Span{Start: pad.Span.Start, End: end}})
	}
	if _, placeholder := ch.ProjectName(); placeholder && oneLine(r.Title) != "" {
		edits = append(edits, Edit{Span: ch.TitleSpan, NewText: "# " + rp1.TitlePrefix + " " + oneLine(r.Title)})
	}
	// The status the finished text earns, derived as rp1 derives it:
	// Complete when no section is left unwritten (a one-sentence section
	// is written: section-partial, a hint, not a gap).
	status := rp1.Parse(Apply(text, merge(edits))).ExpectedStatus()
	edits = append(edits, headerEdits(ch, text, nl, now, len(edits) > 0, status)...)

	edits = merge(edits)
	tidyEnd(text, edits, nl)
	return Plan{Edits: edits, Cursor: -1}, nil
}

// newSectionOffset is where a missing section (priority index i) goes: after
// the body of the nearest earlier-priority section present, else before the
// nearest later-priority one, else where the scratch pad starts, else at EOF.
func newSectionOffset(ch *rp1.Charter, i int, text []byte) int {
	for j := i - 1; j >= 0; j-- {
		if s := ch.Section(rp1.Priority[j]); s != nil {
			return s.BodySpan.End
		}
	}
	for j := i + 1; j < len(rp1.Priority); j++ {
		if s := ch.Section(rp1.Priority[j]); s != nil {
			return s.HeadingSpan.Start
		}
	}
	if ch.ScratchPad != nil {
		return ch.ScratchPad.Span.Start
	}
	return len(text)
}

// headerEdits set **Status** (adding the field when missing) and, when the
// body changed, **Last Updated** to today if that field exists.
func headerEdits(ch *rp1.Charter, text []byte, nl string, now time.Time, changed bool, status string) []Edit {
	var edits []Edit
	if f := ch.Header("Status"); f != nil {
		if f.Value != status {
			edits = append(edits, Edit{Span: f.ValueSpan, NewText: status})
		}
	} else if n := len(ch.Fields); n > 0 {
		last := ch.Fields[n-1]
		line := ch.Index.Line(last.Span.Start)
		if ch.Index.LineEnd(line) == last.Span.End && ch.Index.LineStart(line) != last.Span.Start && strings.Contains(string(text[ch.Index.LineStart(line):last.Span.Start]), " | ") {
			edits = append(edits, Edit{Span: source.Span{Start: last.Span.End, End: last.Span.End}, NewText: " | **Status**: " + status})
		} else {
			end := ch.Index.LineEnd(line)
			edits = append(edits, Edit{Span: source.Span{Start: end, End: end}, NewText: nl + "**Status**: " + status})
		}
	} else if ch.Title != "" {
		end := ch.TitleSpan.End
		edits = append(edits, Edit{Span: source.Span{Start: end, End: end}, NewText: nl + nl + "**Status**: " + status})
	}
	if f := ch.Header("Last Updated"); f != nil && changed {
		edits = append(edits, Edit{Span: f.ValueSpan, NewText: now.UTC().Format("2006-01-02")})
	}
	return edits
}

// skipBlankLines moves off (a line's content end) past that line's ending
// and any blank lines after it.
func skipBlankLines(text []byte, off int) int {
	i := off
	for i < len(text) && text[i] != '\n' {
		i++
	}
	if i < len(text) {
		i++
	}
	for {
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
			j++
		}
		switch {
		case j == len(text):
			return j
		case text[j] == '\n':
			i = j + 1
		default:
			return i
		}
	}
}

// tidyEnd makes the file end with exactly one line ending when the last
// edit reaches EOF, so finishing leaves no trailing blank lines.
func tidyEnd(text []byte, edits []Edit, nl string) {
	if len(edits) == 0 {
		return
	}
	e := &edits[len(edits)-1]
	if e.Span.End < len(text) {
		return
	}
	trimmed := strings.TrimRight(e.NewText, " \t\r\n")
	if trimmed != "" {
		e.NewText = trimmed + nl
		return
	}
	floor := 0
	if len(edits) > 1 {
		floor = edits[len(edits)-2].Span.End
	}
	e.NewText = ""
	e.Span.Start = max(blankStart(text, e.Span.Start), floor)
}
