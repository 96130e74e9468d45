package rp1

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

var (
	// metaRe matches the <!-- Mode: X --> and <!-- Started: X --> comments.
	metaRe = regexp.MustCompile(`(?i)^<!--\s*(mode|started)\s*:\s*(.*?)\s*-->$`)
	// endMarkerRe matches <!-- End scratch pad -->, tolerating case and spacing.
	endMarkerRe = regexp.MustCompile(`(?i)^<!--\s*end\s+scratch\s*pad\s*-->$`)
	// entryHeadingRe reads "Q{N}: {Topic}" from a ### heading's text.
	entryHeadingRe = regexp.MustCompile(`(?i)^Q\s*(\d+)\s*:\s*(.*)$`)
	// fieldRe matches an entry field line: **Asked**:, **Answer**:, **Skipped**:
	// (the colon may also sit inside the bold).
	fieldRe = regexp.MustCompile(`(?i)^\*\*(asked|answer|skipped)(?:\*\*[ \t]*:|:\*\*)`)
)

// parseScratchPad reads the scratch pad whose "## Scratch Pad" heading is on
// line head. Like upstream it is line-based and runs to the next "## " line
// (even one inside fenced code or an answer) or EOF; the end marker closes it
// earlier. It returns the scratch pad and the line where scanning of the rest
// of the file resumes.
func parseScratchPad(ix *source.Index, head, n int) (*ScratchPad, int) {
	src := ix.Source()
	sp := &ScratchPad{HeadingSpan: ix.LineSpan(head)}
	var (
		entry *Entry
		field *fieldState
		end   = n
	)
	finishEntry := func() {
		if entry == nil {
			return
		}
		if field != nil {
			field.finish(src, entry)
			field = nil
		}
		entry.Span.End = lastContentEnd(ix, entry.HeadingSpan.End, entry.Span.End)
		sp.Entries = append(sp.Entries, entry)
		entry = nil
	}
	i := head + 1
	for ; i < n; i++ {
		line := ix.LineSpan(i)
		raw := string(src[line.Start:line.End])
		text := strings.TrimSpace(raw)
		level, htext := atxHeading(raw)
		if level == 2 {
			end = i
			break
		}
		if endMarkerRe.MatchString(text) {
			if entry != nil {
				entry.Span.End = line.Start
			}
			finishEntry()
			sp.HasEndMarker, sp.EndSpan = true, line
			end = i + 1
			break
		}
		if level == 3 && !(field != nil && field.hasText(src) && answerHeading(ix, htext, i, n)) {
			if entry != nil {
				entry.Span.End = line.Start
			}
			finishEntry()
			entry = newEntry(htext, line)
			continue
		}
		if entry == nil {
			if m := metaRe.FindStringSubmatchIndex(text); m != nil {
				off := line.Start + strings.Index(raw, text)
				val := source.Span{Start: off + m[4], End: off + m[5]}
				switch strings.ToLower(text[m[2]:m[3]]) {
				case "mode":
					if sp.ModeSpan == (source.Span{}) {
						sp.Mode, sp.ModeSpan = text[m[4]:m[5]], val
					}
				case "started":
					if sp.StartedSpan == (source.Span{}) {
						sp.Started, sp.StartedSpan = text[m[4]:m[5]], val
					}
				}
			}
			continue
		}
		entry.Span.End = ix.LineStart(i + 1)
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if m := fieldRe.FindStringSubmatchIndex(raw[lead:]); m != nil {
			if field != nil {
				field.finish(src, entry)
			}
			valStart := lead + m[1]
			for valStart < len(raw) && (raw[valStart] == ' ' || raw[valStart] == '\t') {
				valStart++
			}
			field = &fieldState{
				name:  strings.ToLower(raw[lead+m[2] : lead+m[3]]),
				start: line.Start + valStart,
				end:   line.End,
			}
			continue
		}
		if field != nil && text != "" {
			field.end = line.End // continuation line of a multi-line value
		}
	}
	if entry != nil && !sp.HasEndMarker {
		entry.Span.End = ix.LineStart(end)
	}
	finishEntry()
	sp.Span = source.Span{Start: sp.HeadingSpan.Start, End: ix.LineStart(end)}
	if sp.HasEndMarker {
		sp.Span.End = sp.EndSpan.End
	} else if end < n {
		// A "## " line ended the pad before its end marker: if the marker
		// follows later, that line was meant to be inside the pad (typically
		// inside an answer), and rp1 cut the pad short there.
		for j := end + 1; j < n; j++ {
			t := strings.TrimSpace(string(src[ix.LineStart(j):ix.LineEnd(j)]))
			if endMarkerRe.MatchString(t) {
				sp.CutShort, sp.CutSpan = true, ix.LineSpan(end)
				break
			}
			if l, h := atxHeading(t); l == 2 && IsScratchPadHeading(h) {
				break
			}
		}
	}
	return sp, end
}

// entryStartRe: a heading that starts a scratch pad entry, even a
// malformed one ("Q3 Scope", "Q: Scope").
var entryStartRe = regexp.MustCompile(`(?i)^Q\s*\d*\s*[:.\s]|^Q\d+$`)

// answerHeading: the H3 on line i, met while a field with text is being
// read, belongs to that text (an answer with "### Out of scope" and a list
// under it) rather than starting an entry: it does not read as "Q{N}…" and
// the next non-blank line is not an **Asked**/**Answer**/**Skipped** field.
// After an empty field (a pending question) a heading starts an entry.
func answerHeading(ix *source.Index, htext string, i, n int) bool {
	if entryStartRe.MatchString(strings.TrimSpace(htext)) {
		return false
	}
	src := ix.Source()
	for j := i + 1; j < n; j++ {
		t := strings.TrimSpace(string(src[ix.LineStart(j):ix.LineEnd(j)]))
		if t == "" {
			continue
		}
		return !fieldRe.MatchString(t) && !endMarkerRe.MatchString(t)
	}
	return true
}

func newEntry(htext string, line source.Span) *Entry {
	e := &Entry{HeadingSpan: line, Span: line}
	if m := entryHeadingRe.FindStringSubmatch(htext); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			e.Number = n
		}
		e.Topic = strings.TrimSpace(m[2])
		return e
	}
	// Not "Q{N}: Topic": keep what follows a colon as the topic, so the
	// diagnostic can still name it.
	if _, after, ok := strings.Cut(htext, ":"); ok {
		e.Topic = strings.TrimSpace(after)
	} else {
		e.Topic = htext
	}
	return e
}

// fieldState is the field being read: its value runs from start to end
// (the last non-blank line so far).
type fieldState struct {
	name       string
	start, end int
}

// hasText: the value read so far is not blank. It copies nothing: it is
// asked at each "###" line inside an answer, and an answer can hold
// 100,000 of them (copying the value so far each time took minutes).
func (f *fieldState) hasText(src []byte) bool {
	return f.end > f.start && len(bytes.TrimSpace(src[f.start:f.end])) > 0
}

func (f *fieldState) finish(src []byte, e *Entry) {
	span := source.Span{Start: f.start, End: f.end}
	if span.End < span.Start {
		span.End = span.Start
	}
	value := strings.TrimSpace(strings.ReplaceAll(string(src[span.Start:span.End]), "\r\n", "\n"))
	if value == "" {
		span.End = span.Start
	}
	switch f.name {
	case "asked":
		e.Asked, e.AskedSpan, e.HasAsked = value, span, true
	case "answer":
		e.Answer, e.AnswerSpan, e.HasAnswer = value, span, true
	case "skipped":
		e.Skipped, e.SkippedSpan, e.HasSkipped = value, span, true
	}
}

// lastContentEnd is the end of the last non-blank line in [from, to), or from.
func lastContentEnd(ix *source.Index, from, to int) int {
	if to <= from {
		return from
	}
	src := ix.Source()
	for l := ix.Line(to - 1); l >= 0; l-- {
		s, e := ix.LineStart(l), ix.LineEnd(l)
		if e > to {
			e = to
		}
		if e <= from {
			return from
		}
		if strings.TrimSpace(string(src[s:e])) != "" {
			return e
		}
	}
	return from
}

// LastNumber is the highest question number in the scratch pad (0 if none);
// the next question is LastNumber()+1.
func (sp *ScratchPad) LastNumber() int {
	max := 0
	if sp == nil {
		return 0
	}
	for _, e := range sp.Entries {
		if e.Number > max {
			max = e.Number
		}
	}
	return max
}

// PendingEntry is the first question asked and not yet answered, or nil.
func (sp *ScratchPad) PendingEntry() *Entry {
	if sp == nil {
		return nil
	}
	for _, e := range sp.Entries {
		if e.Pending() {
			return e
		}
	}
	return nil
}
