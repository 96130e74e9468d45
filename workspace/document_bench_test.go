package workspace

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// BenchmarkKeystrokeLargeDocument measures one typed character in a
// 1.7 MB criteria.md: applying the edit and building the new version's line
// index (what every feature of that version then shares). With "spare",
// the text is written in the memory made after the version before was
// published (Document.PrepareEdit, made outside the timer, as the server
// makes it while the client reads the publish).
func BenchmarkKeystrokeLargeDocument(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1_700_000; i++ {
		sb.WriteString("### VAL-PERF-001 — Tokens are refreshed before they expire ✓\nVerifier: command\nCommand: go test ./...\n\n")
	}
	for _, spare := range []bool{false, true} {
		b.Run(map[bool]string{false: "allocated", true: "spare"}[spare], func(b *testing.B) {
			d := NewDocument("/p/.pi/charters/x/criteria.md", 1, []byte(sb.String()))
			ix := source.NewIndex(d.Text)
			line := ix.LineCount() / 2
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if spare {
					b.StopTimer()
					d.PrepareEdit()
					d.spare.Load().Wait()
					b.StartTimer()
				}
				next, err := d.Apply(d.Version+1, []TextChange{{Range: source.Range{
					Start: source.Position{Line: line, Character: 4}, End: source.Position{Line: line, Character: 4},
				}, Text: "x"}}, ix)
				if err != nil {
					b.Fatal(err)
				}
				f := &File{Path: next.Path, Text: next.Text, doc: next}
				ix = f.Index()
				d = next
			}
		})
	}
}
