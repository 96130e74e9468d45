package pi

import (
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
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

var booleans = []string{"true", "false"}

// Complete offers, at off in the charter file at path (ix is its line
// index), the charter's VAL ids after "VAL-" anywhere (criteria.md,
// REPORT.md, evidence JSON, …), and in a VAL body of the register the file
// holds: field keys at the start of a line, verifier kinds after Verifier:,
// evidence kinds after Kind:, booleans after the flag keys. Nil when
// nothing completes there.
func Complete(v *View, path string, ix *source.Index, off int) []feature.CompletionItem {
	lineStart := ix.LineStart(ix.Line(off))
	before := string(ix.Source()[lineStart:off])
	if start, ok := valIDPrefix(before); ok {
		return valIDItems(v, source.Span{Start: lineStart + start, End: off})
	}
	if c := v.Register(path).At(off); c == nil || off <= c.HeadingSpan().End {
		return nil
	}
	trimmed := strings.TrimLeft(before, " \t")
	key, value, hasColon := strings.Cut(trimmed, ":")
	if !hasColon {
		if strings.ContainsAny(trimmed, "`*-#>") {
			return nil
		}
		at := source.Span{Start: off - len(trimmed), End: off}
		items := []feature.CompletionItem{}
		for i, f := range fieldKeys {
			items = append(items, feature.CompletionItem{Label: f.key + ":", Detail: f.doc, Kind: feature.Key,
				Span: at, Insert: f.key + ": ", Sort: string(rune('a' + i))})
		}
		return items
	}
	var values []string
	switch k := strings.Join(strings.Fields(strings.ToLower(key)), " "); {
	case k == KeyVerifier:
		values = VerifierNames()
	case k == KeyKind:
		values = EvidenceKinds
	case isFlagKey(k):
		values = booleans
	default:
		return nil
	}
	typed := strings.TrimLeft(value, " \t")
	at := source.Span{Start: off - len(typed), End: off}
	items := []feature.CompletionItem{}
	for i, x := range values {
		items = append(items, feature.CompletionItem{Label: x, Kind: feature.Value, Span: at, Insert: x, Sort: string(rune('a' + i))})
	}
	return items
}

// valIDPrefix finds a "VAL-…" token ending at the cursor; start is its
// offset in before.
func valIDPrefix(before string) (start int, ok bool) {
	i := len(before)
	for i > 0 && feature.IsWordByte(before[i-1]) {
		i--
	}
	tok := before[i:]
	return i, len(tok) >= 4 && strings.EqualFold(tok[:4], "VAL-")
}

func isFlagKey(k string) bool {
	for _, f := range append(append([]string{}, FreshKeys...), ReviewKeys...) {
		if k == f {
			return true
		}
	}
	return false
}

// valIDItems are the register's VAL ids, each replacing at.
func valIDItems(v *View, at source.Span) []feature.CompletionItem {
	if v.Dir.Criteria == nil {
		return nil
	}
	items := []feature.CompletionItem{}
	for _, c := range v.Dir.Criteria.Criteria {
		items = append(items, feature.CompletionItem{Label: c.ID, Detail: c.Title, Kind: feature.Reference, Span: at, Insert: c.ID})
	}
	return items
}
