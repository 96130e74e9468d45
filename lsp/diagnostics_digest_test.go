package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestDigestTellsWireFormsApart: the digest replaced comparing the JSON
// sent, so two sets whose JSON differs in any field must digest apart, and
// two equal sets alike.
func TestDigestTellsWireFormsApart(t *testing.T) {
	base := func() []protocol.Diagnostic {
		return []protocol.Diagnostic{{
			Range:           protocol.Range{Start: protocol.Position{Line: 3, Character: 4}, End: protocol.Position{Line: 3, Character: 9}},
			Severity:        protocol.DiagnosticSeverityWarning,
			Code:            protocol.String("invalid-verifier"),
			CodeDescription: protocol.CodeDescription{Href: "https://example.test/codes#invalid-verifier"},
			Source:          protocol.NewOptional("charter"),
			Message:         protocol.String("VAL-A-001: unknown verifier kind"),
			RelatedInformation: []protocol.DiagnosticRelatedInformation{{
				Location: protocol.Location{URI: uri.File("/p/a.md"), Range: protocol.Range{End: protocol.Position{Line: 1}}},
				Message:  "first definition"}},
			Data: []byte(`{"kind":"command"}`),
		}}
	}
	tests := []struct {
		name   string
		change func(d *protocol.Diagnostic)
	}{
		{"start line", func(d *protocol.Diagnostic) { d.Range.Start.Line++ }},
		{"start character", func(d *protocol.Diagnostic) { d.Range.Start.Character++ }},
		{"end line", func(d *protocol.Diagnostic) { d.Range.End.Line++ }},
		{"end character", func(d *protocol.Diagnostic) { d.Range.End.Character++ }},
		{"severity", func(d *protocol.Diagnostic) { d.Severity = protocol.DiagnosticSeverityError }},
		{"code", func(d *protocol.Diagnostic) { d.Code = protocol.String("missing-verifier") }},
		{"integer code", func(d *protocol.Diagnostic) { d.Code = protocol.Integer(7) }},
		{"no code", func(d *protocol.Diagnostic) { d.Code = nil }},
		{"code description", func(d *protocol.Diagnostic) { d.CodeDescription.Href = "" }},
		{"source", func(d *protocol.Diagnostic) { d.Source = protocol.NewOptional("other") }},
		{"no source", func(d *protocol.Diagnostic) { d.Source = protocol.Optional[string]{} }},
		{"message", func(d *protocol.Diagnostic) { d.Message = protocol.String("VAL-A-001: unknown verifier kinds") }},
		{"markup message", func(d *protocol.Diagnostic) {
			d.Message = &protocol.MarkupContent{Kind: protocol.MarkupKindPlainText, Value: "VAL-A-001: unknown verifier kind"}
		}},
		{"tags", func(d *protocol.Diagnostic) { d.Tags.Set([]protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}) }},
		{"related uri", func(d *protocol.Diagnostic) { d.RelatedInformation[0].Location.URI = uri.File("/p/b.md") }},
		{"related range", func(d *protocol.Diagnostic) { d.RelatedInformation[0].Location.Range.Start.Character = 2 }},
		{"related message", func(d *protocol.Diagnostic) { d.RelatedInformation[0].Message = "evidence row" }},
		{"no related", func(d *protocol.Diagnostic) { d.RelatedInformation = nil }},
		{"data", func(d *protocol.Diagnostic) { d.Data = []byte(`{"kind":"hook"}`) }},
		{"no data", func(d *protocol.Diagnostic) { d.Data = nil }},
		// Moving text between adjacent strings must not collide.
		{"code/message boundary", func(d *protocol.Diagnostic) {
			d.Code = protocol.String("invalid-verifierV")
			d.Message = protocol.String("AL-A-001: unknown verifier kind")
		}},
	}
	want := digest(base())
	if got := digest(base()); got != want {
		t.Fatalf("equal diagnostics digest as %s and %s", want, got)
	}
	seen := map[string]string{want: "base"}
	for _, tt := range tests {
		ds := base()
		tt.change(&ds[0])
		got := digest(ds)
		if prev, dup := seen[got]; dup {
			t.Errorf("%s: digest %s equals that of %s", tt.name, got, prev)
		}
		seen[got] = tt.name
	}
	if digest(nil) == digest(append(base(), base()...)) || digest(base()) == digest(append(base(), base()...)) {
		t.Error("sets of different lengths digest alike")
	}
}
