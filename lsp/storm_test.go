package lsp_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// An edit storm — thousands of didChange notifications in a burst, with
// hovers and code actions racing them — ends with the client holding the
// diagnostics of exactly the final version, equal to a fresh pull.
func TestEditStorm(t *testing.T) {
	const edits = 2000
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open("charter.md", "# Charter\n\n## Problem\nTBD\n\n## Target Users\n- devs\n")
	c.WaitDiagnostics(u, 1)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var failures sync.Map
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := protocol.TextDocumentIdentifier{URI: u}
			for i := 0; ctx.Err() == nil; i++ {
				pos := protocol.Position{Line: uint32((i + w) % 8), Character: uint32(i % 12)}
				var err error
				if i%2 == 0 {
					_, err = c.Server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}})
				} else {
					_, err = c.Server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc, Range: protocol.Range{Start: pos, End: pos}})
				}
				if err != nil && ctx.Err() == nil {
					failures.Store(err.Error(), true)
				}
			}
		}()
	}
	// Type on the Problem line, one character per notification.
	for v := 2; v < edits; v++ {
		col := uint32(3 + v - 2)
		c.Change(u, int32(v), lsptest.Edit{StartLine: 3, StartChar: col, EndLine: 3, EndChar: col, Text: string(rune('a' + v%26))})
	}
	// The last edit changes the diagnostics, so it must be published.
	c.Change(u, edits, lsptest.Edit{StartLine: 2, StartChar: 0, EndLine: 4, EndChar: 0, Text: ""})
	cancel()
	wg.Wait()
	failures.Range(func(k, _ any) bool { t.Errorf("request during the storm: %v", k); return true })

	c.Sync()
	ps := c.Published(u)
	last := ps[len(ps)-1]
	if v, _ := last.Params.Version.Get(); v != edits {
		t.Fatalf("last publish is for version %d, want %d (%d publishes)", v, edits, len(ps))
	}
	prev := int32(0)
	for _, p := range ps {
		v, ok := p.Params.Version.Get()
		if !ok || v <= prev {
			t.Errorf("publish versions not increasing: %d after %d", v, prev)
		}
		prev = v
	}
	rep := c.Pull(u, "")
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok {
		t.Fatalf("pull = %T", rep)
	}
	want, _ := json.Marshal(full.Items)
	got, _ := json.Marshal(last.Params.Diagnostics)
	if string(got) != string(want) {
		t.Errorf("last published diagnostics differ from a fresh pull:\n got %s\nwant %s", got, want)
	}
}
