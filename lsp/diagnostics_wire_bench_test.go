package lsp

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// BenchmarkWireEncode is the publishing side of a keystroke on the
// 5,000-VAL register, after the diagnostics are computed: the two versions
// a keystroke alternates between are encoded in turn (the wire cache
// copies all but the edited VAL's from the last JSON) and framed as a
// publishDiagnostics notification, written to a connection that discards
// it.
func BenchmarkWireEncode(b *testing.B) {
	for _, c := range []struct {
		name string
		runs int
	}{{"1327diagnostics", 20}, {"2314diagnostics", 2500}} {
		b.Run(c.name, func(b *testing.B) {
			sets := keystrokeDiagnostics(b, gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: c.runs, Sources: 100})
			var w wireCache
			var sent countingConn
			g := &diagnoser{s: &Server{}}
			g.s.transport.Store(newStream(&sent, zap.NewNop()))
			var spare []byte
			version := int32(1)
			u := uri.File("/p/.pi/charters/bench/criteria.md")
			headroom := publishHeadroom(u)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				frame, _ := w.encode(sets[i%2], headroom)
				spare = g.notify(u, &version, frame, headroom, spare)
				i++
			}
			b.ReportMetric(float64(sent.last), "bytes")
			b.ReportMetric(float64(w.runs), "runs")
			b.ReportMetric(float64(w.fresh), "fresh")
			b.ReportMetric(float64(w.kept), "kept")
		})
	}
}

// countingConn discards what is written to it, counting the bytes of the
// last write.
type countingConn struct{ last int }

func (c *countingConn) Read([]byte) (int, error)    { return 0, io.EOF }
func (c *countingConn) Write(p []byte) (int, error) { c.last = len(p); return len(p), nil }
func (c *countingConn) Close() error                { return nil }

// keystrokeDiagnostics are the register's diagnostics before and after a
// character typed at the end of the middle VAL's verifier line.
func keystrokeDiagnostics(b *testing.B, p gen.Project) [2][]diag.Diagnostic {
	b.Helper()
	path, err := p.Write(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	sess := workspace.NewSession(workspace.Options{})
	sess.Update(workspace.Change{Roots: &[]string{filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(path))))}})
	var sets [2][]diag.Diagnostic
	for i, t := range [][]byte{text, editVerifier(text, p.Milestones)} {
		snap := sess.Update(workspace.Change{Documents: []*workspace.Document{workspace.NewDocument(path, int32(i+1), t)}})
		if sets[i], err = snap.Diagnostics(context.Background(), path); err != nil {
			b.Fatal(err)
		}
	}
	return sets
}

// editVerifier types an "x" at the end of the middle milestone's first
// "Verifier: command" line (what the keystroke benchmarks type).
func editVerifier(text []byte, milestones int) []byte {
	mid := bytes.Index(text, []byte("### "+gen.ID(milestones/2, 0)+" "))
	line := []byte("\nVerifier: command\n")
	at := mid + bytes.Index(text[mid:], line) + len(line) - 1
	return append(append(append([]byte(nil), text[:at]...), 'x'), text[at:]...)
}
