package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// rp1Symbols: the title holds the sections (status in the detail) and the
// scratch pad, which holds its entries (answered, skipped, pending or
// malformed).
func rp1Symbols(d *doc) []protocol.DocumentSymbol {
	ch := d.RP1()
	ix := d.Index()
	var body []protocol.DocumentSymbol
	for _, sec := range ch.Sections {
		body = append(body, symbol(ix, sec.Heading, sectionDetail(sec), protocol.SymbolKindModule,
			source.Span{Start: sec.HeadingSpan.Start, End: sec.BodySpan.End}, sec.HeadingSpan))
	}
	if pad := ch.ScratchPad; pad != nil {
		var entries []protocol.DocumentSymbol
		for _, e := range pad.Entries {
			name := fmt.Sprintf("Q%d: %s", e.Number, e.Topic)
			if e.Number == 0 {
				name = strings.TrimSpace(strings.TrimLeft(string(d.Text[e.HeadingSpan.Start:e.HeadingSpan.End]), "#"))
			}
			entries = append(entries, symbol(ix, name, entryState(e), protocol.SymbolKindEvent, e.Span, e.HeadingSpan))
		}
		detail := "interview"
		if pad.Mode != "" {
			detail += " · " + pad.Mode
		}
		sp := symbol(ix, "Scratch Pad", detail, protocol.SymbolKindNamespace, pad.Span, pad.HeadingSpan)
		sp.Children = entries
		widen(&sp)
		body = append(body, sp)
	}
	if ch.Title == "" && ch.TitleSpan == (source.Span{}) {
		return body
	}
	title := symbol(ix, ch.Title, "charter", protocol.SymbolKindFile,
		source.Span{Start: ch.TitleSpan.Start, End: len(d.Text)}, ch.TitleSpan)
	title.Children = body
	widen(&title)
	return []protocol.DocumentSymbol{title}
}

// sectionDetail: the section id and status, and why it is partial.
func sectionDetail(sec *rp1.Section) string {
	if sec.ID == "" {
		return ""
	}
	detail := string(sec.ID) + " · " + string(sec.Status)
	var why []string
	for _, p := range sec.Problems {
		switch p.Kind {
		case rp1.ProblemFewSentence:
			why = append(why, "too few sentences")
		default:
			why = append(why, p.Text)
		}
	}
	if len(why) > 0 {
		detail += ": " + strings.Join(why, ", ")
	}
	return detail
}

// entryState says what the interviewer makes of an entry, in one word.
func entryState(e *rp1.Entry) string {
	switch {
	case e.Number == 0, e.Malformed():
		return "malformed"
	case e.HasSkipped:
		return "skipped"
	case e.Pending():
		return "pending"
	case e.Answered():
		return "answered"
	}
	return "unanswered"
}
