package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// The interview commands edit an rp1 charter and nothing else, whatever a
// forged argument names: a git hook, a source file, a charter.md that is a
// link to a hook, a file outside the workspace. Each is refused and no edit
// reaches the editor; a real charter.md is still edited (near miss).
func TestInterviewCommandsEditOnlyCharters(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps()})
	hook := "#!/bin/sh\n# Project Charter\n## Scratch Pad\necho hi\n"
	c.WriteFile(".git/hooks/pre-commit", hook)
	c.WriteFile(".git/hooks/charter.md", "")
	c.WriteFile("main.go", "package main\n")
	c.WriteFile("notes.md", "# Notes\n")
	if err := os.Symlink(c.Path(".git/hooks/pre-commit"), c.Path("docs-charter.md")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	os.MkdirAll(c.Path("linked"), 0o755)
	os.Symlink(c.Path(".git/hooks/pre-commit"), c.Path("linked/charter.md"))
	outside := filepath.Join(t.TempDir(), "charter.md")
	os.WriteFile(outside, nil, 0o644)

	forged := []uri.URI{
		c.URI(".git/hooks/pre-commit"),
		c.URI(".git/hooks/charter.md"),
		c.URI("main.go"),
		c.URI("notes.md"),
		c.URI("docs-charter.md"),
		c.URI("linked/charter.md"),
		uri.File(outside),
		"file:///etc/passwd",
	}
	for _, cmd := range []string{"charter.interview.start", "charter.interview.next", "charter.interview.skip", "charter.interview.finish"} {
		for _, u := range forged {
			arg, _ := json.Marshal(map[string]any{"uri": u})
			_, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: cmd, Arguments: []protocol.LSPAny{arg}})
			if err == nil {
				t.Errorf("%s on %s was carried out", cmd, u)
			}
		}
	}
	c.Sync()
	if edits := c.Edits(); len(edits) != 0 {
		t.Fatalf("forged arguments produced edits: %+v", edits)
	}
	for rel, want := range map[string]string{".git/hooks/pre-commit": hook, "main.go": "package main\n", "notes.md": "# Notes\n"} {
		if got, _ := os.ReadFile(c.Path(rel)); string(got) != want {
			t.Errorf("%s changed: %q", rel, got)
		}
	}

	// Near miss: the charter itself.
	arg, _ := json.Marshal(map[string]any{"uri": c.URI("charter.md")})
	if _, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.interview.start", Arguments: []protocol.LSPAny{arg}}); err != nil {
		t.Fatalf("interview on charter.md: %v", err)
	}
	if len(c.Edits()) != 1 {
		t.Fatalf("interview on charter.md made %d edits, want 1", len(c.Edits()))
	}
}

// A pi charter outside the workspace — named by an absolute URI, or
// reached through a charter folder that is a link out of the workspace —
// is never read: charter.status refuses it, and hover on its criteria
// shows nothing of its evidence.
func TestStatusAndHoverStayInTheWorkspace(t *testing.T) {
	const secret = "SECRET-SUMMARY-FROM-OUTSIDE"
	outside := filepath.Join(t.TempDir(), ".pi", "charters", "secret")
	criteria := "# Criteria\n\n## m1\n\n### VAL-SEC-001 — Tokens rotate\n\nVerifier: manual\n"
	testfixture.WriteFiles(t, outside, map[string]string{
		"criteria.md": criteria,
		"state.json":  `{"charterId":"secret","status":"active"}`,
		"criterion-state.json": `{"charterId":"secret","criteria":{"VAL-SEC-001":{"outcome":"pass",` +
			`"lastEvidencePath":"work/_charter/evidence/2026-01-01T00-00-00-000Z/evidence.json","lastTs":"2026-01-01T00:00:00.000Z","lastSummary":"` + secret + `"}}}`,
		"work/_charter/evidence/2026-01-01T00-00-00-000Z/evidence.json": `{"criterionId":"VAL-SEC-001","outcome":"pass","summary":"` + secret +
			`","artifacts":[],"details":{},"source":"manual","because":"` + secret + `","recordedBy":"user","ts":"2026-01-01T00:00:00.000Z"}`,
	})
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	os.MkdirAll(c.Path(".pi/charters"), 0o755)
	if err := os.Symlink(outside, c.Path(".pi/charters/linked")); err != nil {
		t.Skipf("symlinks: %v", err)
	}

	var seen []string
	for _, u := range []uri.URI{uri.File(filepath.Join(outside, "criteria.md")), c.URI(".pi/charters/linked/criteria.md")} {
		arg, _ := json.Marshal(map[string]any{"uri": u})
		res, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.status", Arguments: []protocol.LSPAny{arg}})
		if err == nil {
			t.Errorf("charter.status on %s answered: %s", u, res)
		}
		seen = append(seen, string(res))

		if err := c.Server.DidOpen(t.Context(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "markdown", Version: 1, Text: criteria}}); err != nil {
			t.Fatal(err)
		}
		c.Sync()
		tdp := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 4, Character: 6}}
		h, err := c.Server.Hover(t.Context(), &protocol.HoverParams{TextDocumentPositionParams: tdp})
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			t.Fatalf("no hover on the VAL heading of %s (the document itself is the editor's)", u)
		}
		raw, _ := protocol.Marshal(h)
		seen = append(seen, string(raw))
		lenses, _ := c.Server.CodeLens(t.Context(), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
		raw, _ = protocol.Marshal(lenses)
		seen = append(seen, string(raw))
	}
	res, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.status"})
	if err != nil {
		t.Fatal(err)
	}
	seen = append(seen, string(res))
	for _, s := range seen {
		if strings.Contains(s, secret) || strings.Contains(s, "✓ pass") {
			t.Errorf("content of a charter outside the workspace reached the client: %s", s)
		}
	}
}
