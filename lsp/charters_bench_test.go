package lsp_test

import (
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

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

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
