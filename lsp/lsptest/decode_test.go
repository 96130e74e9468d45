package lsptest

import (
	"reflect"
	"testing"

	"go.lsp.dev/protocol"
)

// Decoding one diagnostic at a time gives what the protocol package's
// decoder gives for the whole message.
func TestDecodeMatchesProtocolUnmarshal(t *testing.T) {
	diag := `{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":9}},"severity":2,"code":"duplicate-val-id","source":"charter","message":"VAL-X-A is defined twice",` +
		`"relatedInformation":[{"location":{"uri":"file:///w/criteria.md","range":{"start":{"line":0,"character":4},"end":{"line":0,"character":11}}},"message":"first definition"}],"data":{"k":[1,"é"]}}`
	for _, tt := range []struct {
		name, raw string
		into      func() any
		decode    func([]byte) (any, error)
	}{
		{"publish with version", `{"uri":"file:///w/criteria.md","version":7,"diagnostics":[` + diag + `,` + diag + `]}`,
			func() any { return &protocol.PublishDiagnosticsParams{} },
			func(b []byte) (any, error) { p, err := decodePublish(b); return &p, err }},
		{"publish on close", `{"uri":"file:///w/criteria.md","diagnostics":[]}`,
			func() any { return &protocol.PublishDiagnosticsParams{} },
			func(b []byte) (any, error) { p, err := decodePublish(b); return &p, err }},
		{"full report", `{"kind":"full","resultId":"abc","items":[` + diag + `]}`,
			func() any { return &protocol.RelatedFullDocumentDiagnosticReport{} },
			func(b []byte) (any, error) { return decodeReport(b) }},
		{"unchanged report", `{"kind":"unchanged","resultId":"abc"}`,
			func() any { return &protocol.RelatedUnchangedDocumentDiagnosticReport{} },
			func(b []byte) (any, error) { return decodeReport(b) }},
	} {
		want := tt.into()
		if err := protocol.Unmarshal([]byte(tt.raw), want); err != nil {
			t.Fatalf("%s: protocol.Unmarshal: %v", tt.name, err)
		}
		got, err := tt.decode([]byte(tt.raw))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, want)
		}
	}
}
