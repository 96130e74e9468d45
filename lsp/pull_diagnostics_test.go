package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// pullCodes pulls u's diagnostics and returns their codes.
func pullCodes(t *testing.T, c *lsptest.Client, u uri.URI) []string {
	t.Helper()
	rep, ok := c.Pull(u, "").(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok {
		t.Fatalf("pull without a previous id must give a full report")
	}
	return diagCodes(rep.Items)
}

// A client that pulls diagnostics (VS Code) must not be pushed them as
// well, or it lists every diagnostic twice; when another file's change alters
// an open document's diagnostics, the server asks it to pull again.
func TestPullClientIsNotPushed(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	yes := true
	caps := editorCaps()
	caps.TextDocument.Diagnostic = &protocol.DiagnosticClientCapabilities{RelatedDocumentSupport: &yes}
	caps.Workspace.Diagnostics = &protocol.DiagnosticWorkspaceClientCapabilities{RefreshSupport: &yes}
	c := lsptest.Start(t, lsptest.Config{Root: project, Capabilities: caps, InitializationOptions: map[string]any{"debounceMs": 0}})

	evidenceRel := ".pi/charters/auth-rework/work/_charter/evidence/2026-11-12T16-30-00-000Z/evidence.json"
	criteriaText, _ := os.ReadFile(filepath.Join(charter, "criteria.md"))
	evidenceText, _ := os.ReadFile(filepath.Join(project, filepath.FromSlash(evidenceRel)))
	cu := c.Open(criteriaRel, string(criteriaText))
	eu := c.Open(evidenceRel, string(evidenceText))
	c.Sync()

	if got := strings.Join(pullCodes(t, c, eu), " "); !strings.Contains(got, "evidence-unknown-val") {
		t.Fatalf("evidence.json pull: %s", got)
	}
	if got := strings.Join(pullCodes(t, c, cu), " "); !strings.Contains(got, "stale-evidence") {
		t.Fatalf("criteria.md pull: %s", got)
	}

	// Define VAL-ROLL-009 in criteria.md: the evidence row is no longer for
	// an unknown VAL, a change the client cannot know about by itself.
	before := c.DiagnosticRefreshes()
	end := endOf(string(criteriaText))
	c.Change(cu, 2, lsptest.Edit{StartLine: end.Line, StartChar: end.Character, EndLine: end.Line, EndChar: end.Character,
		Text: "\n### VAL-ROLL-009 — Rollback drill runs weekly\nVerifier: manual\nBecause: a person runs the drill\n"})
	c.Sync()
	if c.DiagnosticRefreshes() <= before {
		t.Fatal("no workspace/diagnostic/refresh after a change that alters another open file's diagnostics")
	}
	if got := strings.Join(pullCodes(t, c, eu), " "); strings.Contains(got, "evidence-unknown-val") {
		t.Fatalf("evidence.json still reports the VAL unknown after criteria.md defines it: %s", got)
	}

	for _, u := range []uri.URI{cu, eu} {
		for _, p := range c.Published(u) {
			if len(p.Params.Diagnostics) > 0 {
				t.Fatalf("pushed %d diagnostics for %s to a pull client", len(p.Params.Diagnostics), u)
			}
		}
	}
}

// endOf is the position at the end of text (ASCII).
func endOf(text string) protocol.Position {
	lines := strings.Split(text, "\n")
	return protocol.Position{Line: uint32(len(lines) - 1), Character: uint32(len(lines[len(lines)-1]))}
}
