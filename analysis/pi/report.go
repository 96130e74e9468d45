package pi

import (
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ReportSectionNames are the sections REPORT.md needs, in order.
var ReportSectionNames = []string{"Objective", "Outcome", "Notes"}

// Report is REPORT.md.
type Report struct {
	Title     string
	TitleSpan source.Span // the heading line; empty when there is no "# " heading
	HasTitle  bool
	Objective *ReportSection
	Outcome   *ReportSection
	Notes     *ReportSection
}

// ReportSection is one ## section. A repeated heading: the last one wins,
// as in upstream's map.
type ReportSection struct {
	HeadingSpan source.Span
	BodySpan    source.Span
	// HasContent: some line is non-blank and does not start with "<!--".
	HasContent bool
}

// Section returns the section named like ReportSectionNames, or nil.
func (r *Report) Section(name string) *ReportSection {
	switch strings.ToLower(name) {
	case "objective":
		return r.Objective
	case "outcome":
		return r.Outcome
	case "notes":
		return r.Notes
	}
	return nil
}

// ParseReport parses REPORT.md as upstream does: an H1 sets the title (the
// last one wins) and ends the current section; /^##\s+(.+?)\s*$/ starts one.
func ParseReport(src []byte) *Report {
	r := &Report{}
	var cur *ReportSection
	var key string
	closeAt := func(end int) {
		if cur == nil {
			return
		}
		if end < cur.BodySpan.Start {
			end = cur.BodySpan.Start
		}
		cur.BodySpan.End = end
		cur.HasContent = hasReportContent(src, cur.BodySpan)
		switch key {
		case "objective":
			r.Objective = cur
		case "outcome":
			r.Outcome = cur
		case "notes":
			r.Notes = cur
		}
		cur = nil
	}
	for _, l := range splitLines(src, 0, len(src)) {
		if t, ok := heading(src, l, 1); ok {
			closeAt(lineEndBefore(src, l.start))
			r.Title, r.TitleSpan, r.HasTitle = string(src[t.Start:t.End]), l.span(), t.Len() > 0
			continue
		}
		if t, ok := heading(src, l, 2); ok {
			closeAt(lineEndBefore(src, l.start))
			key = normalizeKey(src[t.Start:t.End])
			cur = &ReportSection{HeadingSpan: l.span(), BodySpan: source.Span{Start: l.next}}
		}
	}
	closeAt(len(src))
	return r
}

func hasReportContent(src []byte, body source.Span) bool {
	for _, l := range splitLines(src, body.Start, body.End) {
		t := trimSpan(src, l.span())
		if t.Len() > 0 && !strings.HasPrefix(string(src[t.Start:t.End]), "<!--") {
			return true
		}
	}
	return false
}
