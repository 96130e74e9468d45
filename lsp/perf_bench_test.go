package lsp_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
// JSON-RPC connection; checks/op counts the files checked per keystroke
// (one: the register; its charter's other files are not open).
func BenchmarkEditToDiagnostics(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			bs := startBench(b, sz.milestones, sz.vals, 100)
			b.ReportAllocs()
			before := bs.c.LSP.Checks()
			for b.Loop() {
				bs.edit(b)
			}
			b.ReportMetric(float64(bs.c.LSP.Checks()-before)/float64(b.N), "checks/op")
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

// chartersFolder writes a .charters/<id>/ file-interface charter (Status
// lines, ADR-0015) of n criteria, each depending on the one before, with
// its state.json and a journal of n events, and returns charter.md's path
// relative to root and its text.
func chartersFolder(t testing.TB, root string, n int) (rel, text string) {
	t.Helper()
	id := "20260702-101500-big"
	dir := filepath.Join(root, ".charters", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# Charter: Big\n\n## Objective\n\nShip the big thing in many small steps.\n\n## References\n\n- docs/big.md\n\n## Scope\n\nEverything.\n\n## Criteria\n\n")
	statuses := []string{"pass", "in-progress", "pending", "blocked", "fail"}
	var snapshot, events []string
	for i := 1; i <= n; i++ {
		st := statuses[i%len(statuses)]
		fmt.Fprintf(&b, "### C%d. Step %d works\nStep %d does what it says.\n", i, i, i)
		if i > 1 {
			fmt.Fprintf(&b, "Depends: C%d\n", i-1)
		}
		fmt.Fprintf(&b, "Status: %s — note %d\n\n", st, i)
		snapshot = append(snapshot, fmt.Sprintf(`{"id": "C%d", "title": "Step %d works", "depends": [], "status": {"value": %q, "note": "note %d"}, "statusSeq": %d}`, i, i, st, i, i))
		events = append(events, fmt.Sprintf(`{"type":"criterion_status_changed","ts":"2026-07-03T10:00:00.000Z","charterId":%q,"seq":%d,"criterionId":"C%d","status":{"value":"fail","note":"x"}}`, id, i, i))
	}
	state := fmt.Sprintf(`{"charterId": %q, "schemaVersion": "file-interface", "objective": "Ship the big thing", "status": "active",
"createdAt": "2026-07-02T10:15:00.000Z", "updatedAt": "2026-07-16T09:12:44.000Z", "nextSeq": %d, "latestSourceSeq": %d, "snapshotHash": "0000",
"criteriaSnapshot": [%s]}`, id, n+2, n/2, strings.Join(snapshot, ",\n"))
	for name, content := range map[string]string{"state.json": state, "events.jsonl": strings.Join(events, "\n") + "\n", "charter.md": b.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ".charters/" + id + "/charter.md", b.String()
}

// BenchmarkHoverCharters is hover on a criterion heading of an open
// 200-criterion .charters/ charter, through the client connection: the
// target is a p50 under a millisecond (reported as p50-ms), the folder read
// once per change rather than once per request.
func BenchmarkHoverCharters(b *testing.B) {
	root := b.TempDir()
	rel, text := chartersFolder(b, root, 200)
	c := lsptest.Start(b, lsptest.Config{Root: root, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(rel, text)
	c.WaitDiagnostics(u, 1)
	line := uint32(slices.Index(strings.Split(text, "\n"), "### C100. Step 100 works"))
	p := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.URI(u)}, Position: protocol.Position{Line: line, Character: 5}}}
	var took []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		h, err := c.Server.Hover(context.Background(), p)
		took = append(took, time.Since(start))
		if mc, ok := hoverMarkup(h); err != nil || !ok || !strings.Contains(mc, "C100. Step 100 works") {
			b.Fatalf("hover: %v %v", h, err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "p50-ms")
}

// hoverMarkup is a hover's markdown.
func hoverMarkup(h *protocol.Hover) (string, bool) {
	if h == nil {
		return "", false
	}
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok {
		return "", false
	}
	return mc.Value, true
}
