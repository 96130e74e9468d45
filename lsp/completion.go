package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// fieldKeys are the field keys offered at the start of a VAL body line, as
// they are usually written.
var fieldKeys = []struct{ key, doc string }{
	{"Verifier", "how the VAL is verified: command, hook, prompt, manual, subagent, evidence-exists"},
	{"Command", "the verifier command (shown, never run by charter-lsp)"},
	{"Because", "why a person checks this (required with Verifier: manual)"},
	{"Description", "what the VAL asserts"},
	{"Fresh evidence required", "true: a pass older than the last source change is stale"},
	{"Review subagent required", "true: a review subagent must confirm the evidence"},
	{"Agent", "the subagent that verifies (Verifier: subagent)"},
	{"Task", "what the subagent checks (Verifier: subagent)"},
	{"Kind", "the evidence kind (Verifier: evidence-exists): review, qa, readiness, command"},
	{"FreshSince", "the date evidence must be newer than (Verifier: evidence-exists)"},
}

var (
	verifierKinds = pi.VerifierNames()
	evidenceKinds = []string{"review", "qa", "readiness", "command"}
	booleans      = []string{"true", "false"}
)

// Completion offers, in a .charters/ charter, what its grammar reads at
// the cursor (Depends ids, Status and Evidence tokens, phase suffixes,
// labels), and, in pi charter files: field keys at the start of a line
// in a VAL body, verifier kinds after Verifier:, evidence kinds after Kind:,
// booleans after the flag keys, and the charter's VAL ids after "VAL-"
// anywhere (criteria.md, REPORT.md, evidence JSON, …).
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	ix := d.Index()
	off := ix.Offset(fromProtocolPosition(params.Position))
	if d.Kind == analysis.KindChartersCharter {
		if v := d.chartersView(); v != nil {
			return toProtocolCompletion(ix, charterfile.Complete(v, off)), nil
		}
		return nil, nil
	}
	dir := analysis.PiCharterDir(d.Path)
	if dir == "" || d.Kind == analysis.KindNone {
		return nil, nil
	}
	lineStart := ix.LineStart(ix.Line(off))
	before := string(d.Text[lineStart:off])

	if start, ok := valIDPrefix(before); ok {
		view := d.piView()
		return s.valIDItems(view, ix, lineStart+start, off), nil
	}
	if d.Kind != analysis.KindCriteria && d.Kind != analysis.KindPiCharter {
		return nil, nil
	}
	view := d.piView()
	if c := criterionAt(d.register(view), off); c == nil || off <= c.HeadingSpan.End {
		return nil, nil
	}
	trimmed := strings.TrimLeft(before, " \t")
	key, value, hasColon := strings.Cut(trimmed, ":")
	if !hasColon {
		if strings.ContainsAny(trimmed, "`*-#>") {
			return nil, nil
		}
		return keyItems(ix, off-len(trimmed), off), nil
	}
	var values []string
	switch k := strings.Join(strings.Fields(strings.ToLower(key)), " "); {
	case k == pi.KeyVerifier:
		values = verifierKinds
	case k == pi.KeyKind:
		values = evidenceKinds
	case isFlagKey(k):
		values = booleans
	default:
		return nil, nil
	}
	typed := strings.TrimLeft(value, " \t")
	return valueItems(values, ix, off-len(typed), off), nil
}

// valIDPrefix finds a "VAL-…" token ending at the cursor; start is its
// offset in before.
func valIDPrefix(before string) (start int, ok bool) {
	i := len(before)
	for i > 0 && isIDByte(before[i-1]) {
		i--
	}
	tok := before[i:]
	return i, len(tok) >= 4 && strings.EqualFold(tok[:4], "VAL-")
}

func isIDByte(b byte) bool {
	return b == '-' || b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
}

func isFlagKey(k string) bool {
	for _, f := range append(append([]string{}, pi.FreshKeys...), pi.ReviewKeys...) {
		if k == f {
			return true
		}
	}
	return false
}

func (s *Server) valIDItems(view *pi.View, ix *source.Index, start, end int) protocol.CompletionItemSlice {
	if view == nil || view.Dir.Criteria == nil {
		return nil
	}
	r := toProtocolRange(ix.Range(source.Span{Start: start, End: end}))
	items := protocol.CompletionItemSlice{}
	for _, c := range view.Dir.Criteria.Criteria {
		item := protocol.CompletionItem{
			Label:    c.ID,
			Kind:     protocol.CompletionItemKindReference,
			Detail:   protocol.NewOptional(c.Title),
			TextEdit: &protocol.TextEdit{Range: r, NewText: c.ID},
		}
		items = append(items, item)
	}
	return items
}

func keyItems(ix *source.Index, start, end int) protocol.CompletionItemSlice {
	r := toProtocolRange(ix.Range(source.Span{Start: start, End: end}))
	items := protocol.CompletionItemSlice{}
	for i, f := range fieldKeys {
		items = append(items, protocol.CompletionItem{
			Label:    f.key + ":",
			Kind:     protocol.CompletionItemKindProperty,
			Detail:   protocol.NewOptional(f.doc),
			SortText: protocol.NewOptional(string(rune('a' + i))),
			TextEdit: &protocol.TextEdit{Range: r, NewText: f.key + ": "},
		})
	}
	return items
}

func valueItems(values []string, ix *source.Index, start, end int) protocol.CompletionItemSlice {
	r := toProtocolRange(ix.Range(source.Span{Start: start, End: end}))
	items := protocol.CompletionItemSlice{}
	for i, v := range values {
		items = append(items, protocol.CompletionItem{
			Label:    v,
			Kind:     protocol.CompletionItemKindEnumMember,
			SortText: protocol.NewOptional(string(rune('a' + i))),
			TextEdit: &protocol.TextEdit{Range: r, NewText: v},
		})
	}
	return items
}
