package lsp_test

import (
	"bytes"
	"context"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

var benchSizes = []struct {
	name             string
	milestones, vals int
}{
	{"100VALs", gen.RealisticMilestones, gen.RealisticVALs},
	{"5000VALs", gen.LargeMilestones, gen.LargeVALs},
}

// benchServer opens a generated register (with evidence and sources) in a
// server with debounce 0 and waits for its first diagnostics.
type benchServer struct {
	c       *lsptest.Client
	u       uri.URI
	text    []byte
	version int32
	// verifier is the position of the end of the middle VAL's "Verifier:
	// command" line: typing there toggles invalid-verifier, so every edit
	// changes the diagnostics and is published.
	verifier protocol.Position
	heading  protocol.Position // inside the middle VAL's heading
	body     protocol.Position // start of an empty line in a VAL body
}

func startBench(b *testing.B, milestones, vals, sources int) *benchServer {
	b.Helper()
	root := b.TempDir()
	if _, err := (gen.Project{Milestones: milestones, VALs: vals, Runs: 20, Sources: sources}).Write(root); err != nil {
		b.Fatal(err)
	}
	c := lsptest.Start(b, lsptest.Config{Root: root, Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	bs := &benchServer{c: c, text: gen.Criteria(milestones, vals), version: 1}
	lines := bytes.Split(bs.text, []byte("\n"))
	mid := []byte("### " + gen.ID(milestones/2, 0) + " ")
	for i, l := range lines {
		if bytes.HasPrefix(l, mid) {
			bs.heading = protocol.Position{Line: uint32(i), Character: 6}
			for j := i + 1; ; j++ {
				if string(lines[j]) == "Verifier: command" {
					bs.verifier = protocol.Position{Line: uint32(j), Character: uint32(len(lines[j]))}
					bs.body = protocol.Position{Line: uint32(j + 3)} // the blank line after the VAL
					break
				}
			}
			break
		}
	}
	bs.u = c.Open(".pi/charters/bench/criteria.md", string(bs.text))
	c.WaitDiagnostics(bs.u, 1)
	return bs
}

// edit types (odd versions: a character) or undoes (even versions) at the
// verifier line and waits for the publish of the new version.
func (bs *benchServer) edit(b *testing.B) {
	bs.version++
	p := bs.verifier
	e := lsptest.Edit{StartLine: p.Line, StartChar: p.Character, EndLine: p.Line, EndChar: p.Character, Text: "x"}
	if bs.version%2 == 1 {
		e.EndChar++
		e.Text = ""
	}
	bs.c.Change(bs.u, bs.version, e)
	bs.c.WaitDiagnostics(bs.u, bs.version)
}

// BenchmarkEditToDiagnostics is a keystroke in the middle of the register
// until the updated diagnostics are published (debounce 0), through a real
// JSON-RPC connection.
func BenchmarkEditToDiagnostics(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			bs := startBench(b, sz.milestones, sz.vals, 100)
			b.ReportAllocs()
			for b.Loop() {
				bs.edit(b)
			}
		})
	}
}

// BenchmarkEditWithManySources is the keystroke of the large register in a
// project with 50,000 source files: freshness must not walk them per edit.
func BenchmarkEditWithManySources(b *testing.B) {
	bs := startBench(b, gen.LargeMilestones, gen.LargeVALs, 50_000)
	b.ReportAllocs()
	for b.Loop() {
		bs.edit(b)
	}
}

// BenchmarkOpenToDiagnostics opens the register and waits for its first
// diagnostics.
func BenchmarkOpenToDiagnostics(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			bs := startBench(b, sz.milestones, sz.vals, 100)
			text := string(bs.text)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				bs.c.Close(bs.u)
				bs.c.Sync()
				bs.version++ // a new version number tells this publish from earlier ones
				b.StartTimer()
				err := bs.c.Server.DidOpen(context.Background(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
					URI: bs.u, LanguageID: "markdown", Version: bs.version, Text: text}})
				if err != nil {
					b.Fatal(err)
				}
				bs.c.WaitDiagnostics(bs.u, bs.version)
			}
		})
	}
}

func BenchmarkHover(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			bs := startBench(b, sz.milestones, sz.vals, 100)
			p := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: bs.u}, Position: bs.heading}}
			b.ReportAllocs()
			for b.Loop() {
				h, err := bs.c.Server.Hover(context.Background(), p)
				if err != nil || h == nil {
					b.Fatalf("hover: %v %v", h, err)
				}
			}
		})
	}
}

func BenchmarkCompletion(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			bs := startBench(b, sz.milestones, sz.vals, 100)
			p := &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: bs.u}, Position: bs.body}}
			b.ReportAllocs()
			for b.Loop() {
				r, err := bs.c.Server.Completion(context.Background(), p)
				if err != nil || r == nil {
					b.Fatalf("completion: %v %v", r, err)
				}
			}
		})
	}
}

// BenchmarkCodeAction asks for the actions on the middle VAL's heading with
// the diagnostics the client holds for it.
func BenchmarkCodeAction(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			bs := startBench(b, sz.milestones, sz.vals, 100)
			pub := bs.c.WaitDiagnostics(bs.u, 1)
			var here []protocol.Diagnostic
			for _, d := range pub.Params.Diagnostics {
				if d.Range.Start.Line == bs.heading.Line {
					here = append(here, d)
				}
			}
			r := protocol.Range{Start: bs.heading, End: bs.heading}
			p := &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: bs.u}, Range: r,
				Context: protocol.CodeActionContext{Diagnostics: here}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bs.c.Server.CodeAction(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
