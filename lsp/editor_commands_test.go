package lsp_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
	"github.com/charter-lsp/charter-lsp/status"
)

// The commands that keep the editors thin: charter.status renders the
// status for them, charter.valAt says which VAL the cursor is in. Both are
// driven here through a real client connection, as the editors call them.

// startEditorCommands opens the pi-project fixture's criteria.md.
func startEditorCommands(t *testing.T) (c *lsptest.Client, criteria uri.URI, text string) {
	t.Helper()
	project, _ := testfixture.PiProject(t)
	rel := ".pi/charters/auth-rework/criteria.md"
	src, err := os.ReadFile(filepath.Join(project, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	c = lsptest.Start(t, lsptest.Config{Root: project, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(rel, string(src))
	c.WaitDiagnostics(u, 1)
	return c, u, string(src)
}

// runCommand executes a command with one argument and decodes its result
// into out (left alone for a null result).
func runCommand(t *testing.T, c *lsptest.Client, command string, arg any, out any) error {
	t.Helper()
	raw, err := json.Marshal(arg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: command, Arguments: []protocol.LSPAny{raw}})
	if err != nil {
		return err
	}
	if len(res) == 0 {
		return nil // null, as the codec hands it over
	}
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatalf("%s: result %s: %v", command, res, err)
	}
	return nil
}

// at is the position of needle (+delta bytes) in the ASCII text.
func at(t *testing.T, text, needle string, delta int) protocol.Position {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("no %q in the text", needle)
	}
	i += delta
	return protocol.Position{Line: uint32(strings.Count(text[:i], "\n")), Character: uint32(i - strings.LastIndex(text[:i], "\n") - 1)}
}

func TestEditorCommandsAdvertised(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	for _, name := range []string{"charter.status", "charter.valAt"} {
		if !slices.Contains(c.Result.Capabilities.ExecuteCommandProvider.Commands, name) {
			t.Errorf("executeCommandProvider lacks %s: %v", name, c.Result.Capabilities.ExecuteCommandProvider.Commands)
		}
	}
}

func TestStatusRenderedAsMarkdown(t *testing.T) {
	c, u, _ := startEditorCommands(t)

	var rendered status.Report
	if err := runCommand(t, c, "charter.status", map[string]any{"uri": u, "render": "markdown"}, &rendered); err != nil {
		t.Fatal(err)
	}
	if len(rendered.Charters) != 1 || rendered.Charters[0].CharterID != "auth-rework" {
		t.Fatalf("charters = %+v", rendered.Charters)
	}
	for _, want := range []string{
		"## auth-rework — Session handling rework",
		"### Completion blockers (7)",
		"- **val-not-pass** `VAL-SESS-002`: VAL-SESS-002's latest outcome is fail",
		"- **report-empty-section**: REPORT.md ## Outcome needs content",
		"| ✗ | `VAL-SESS-002` | fail |",
	} {
		if !strings.Contains(rendered.Markdown, want) {
			t.Errorf("markdown lacks %q:\n%s", want, rendered.Markdown)
		}
	}

	// Without render, no markdown; the JSON is the same.
	var plain map[string]json.RawMessage
	if err := runCommand(t, c, "charter.status", map[string]any{"uri": u}, &plain); err != nil {
		t.Fatal(err)
	}
	if _, ok := plain["markdown"]; ok || plain["charters"] == nil {
		t.Errorf("plain status = %v", plain)
	}

	// A file in no charter (the editor shows some other file): every
	// charter of the workspace.
	var other status.Report
	if err := runCommand(t, c, "charter.status", map[string]any{"uri": c.URI("src/auth/token.go"), "render": "markdown"}, &other); err != nil {
		t.Fatal(err)
	}
	if len(other.Charters) != 1 || !strings.Contains(other.Markdown, "val-not-pass") {
		t.Errorf("status for a file outside the charters = %d charters, markdown %q", len(other.Charters), other.Markdown)
	}

	var ignored any
	err := runCommand(t, c, "charter.status", map[string]any{"render": "html"}, &ignored)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "markdown") {
		t.Errorf("render html: err = %v, want InvalidParams naming markdown", err)
	}
}

func TestVALAt(t *testing.T) {
	c, u, text := startEditorCommands(t)
	dir := c.Path(".pi/charters/auth-rework")

	valAt := func(arg map[string]any) *status.VALAt {
		t.Helper()
		var v *status.VALAt
		if err := runCommand(t, c, "charter.valAt", arg, &v); err != nil {
			t.Fatalf("charter.valAt %v: %v", arg, err)
		}
		return v
	}
	cases := []struct {
		where           string
		pos             protocol.Position
		id, outcome     string
		becauseRequired bool
	}{
		{"VAL-SESS-002's heading", at(t, text, "### VAL-SESS-002", 8), "VAL-SESS-002", "fail", false},
		{"VAL-SESS-001's body", at(t, text, "Fresh evidence required", 3), "VAL-SESS-001", "pass", false},
		{"VAL-SESS-003's Verifier: manual line", at(t, text, "Verifier: manual", 0), "VAL-SESS-003", "", true},
		{"VAL-SESS-004, whose bullet fields upstream does not read (manual)", at(t, text, "- Agent: qa", 2), "VAL-SESS-004", "", true},
	}
	for _, tc := range cases {
		v := valAt(map[string]any{"uri": u, "position": tc.pos})
		if v == nil {
			t.Errorf("%s: null", tc.where)
			continue
		}
		if v.CriterionID != tc.id || string(v.Outcome) != tc.outcome || v.BecauseRequired != tc.becauseRequired {
			t.Errorf("%s: got %s outcome %q becauseRequired %v, want %s %q %v", tc.where, v.CriterionID, v.Outcome, v.BecauseRequired, tc.id, tc.outcome, tc.becauseRequired)
		}
		if v.CharterID != "auth-rework" || v.Dir != dir || v.MilestoneID != "m1-sessions" {
			t.Errorf("%s: charter %q dir %q milestone %q", tc.where, v.CharterID, v.Dir, v.MilestoneID)
		}
	}
	for _, where := range []protocol.Position{at(t, text, "## m1-sessions", 3), {Line: 0, Character: 0}} {
		if v := valAt(map[string]any{"uri": u, "position": where}); v != nil {
			t.Errorf("%v: got %s, want null (no VAL there)", where, v.CriterionID)
		}
	}

	// By id, from any file of the charter or its folder (the record flow's
	// quick pick): the same answer.
	v := valAt(map[string]any{"uri": uri.File(dir), "criterionId": "VAL-SESS-001"})
	if v == nil || v.Title != "Login returns a signed token that expires after 15 minutes" || !v.Stale || v.Verifier != "command" {
		t.Errorf("VAL-SESS-001 by id = %+v", v)
	}
	if v := valAt(map[string]any{"uri": uri.File(dir), "criterionId": "VAL-NOPE-1"}); v != nil {
		t.Errorf("an unknown id: %+v", v)
	}
	if v := valAt(map[string]any{"uri": c.URI("src/auth/token.go"), "criterionId": "VAL-SESS-001"}); v != nil {
		t.Errorf("a file in no charter: %+v", v)
	}

	var ignored any
	for _, bad := range []map[string]any{
		{"uri": u},
		{"uri": u, "position": at(t, text, "### VAL-SESS-002", 0), "criterionId": "VAL-SESS-002"},
		{"uri": uri.File(filepath.Join(t.TempDir(), ".pi/charters/x/criteria.md")), "criterionId": "VAL-X-1"},
	} {
		err := runCommand(t, c, "charter.valAt", bad, &ignored)
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InvalidParams {
			t.Errorf("%v: err = %v, want InvalidParams", bad, err)
		}
	}
}

// charter.status shows a repeated VAL id as upstream reads it, the first
// block, in its markdown wherever a milestone lists the id; the JSON keeps
// every block, the first first.
func TestStatusRepeatedIDShowsTheFirstBlock(t *testing.T) {
	project, _ := testfixture.RepeatedVAL(t)
	c := lsptest.Start(t, lsptest.Config{Root: project, InitializationOptions: map[string]any{"debounceMs": 0}})
	var rendered status.Report
	if err := runCommand(t, c, "charter.status", map[string]any{"render": "markdown"}, &rendered); err != nil {
		t.Fatal(err)
	}
	if len(rendered.Charters) != 1 {
		t.Fatalf("charters = %+v", rendered.Charters)
	}
	md := rendered.Markdown
	if strings.Contains(md, testfixture.RepeatedLaterTitle) || strings.Count(md, testfixture.RepeatedFirstTitle) != 2 {
		t.Errorf("the markdown shows the later block of VAL-T-001, or not the first wherever the id is listed:\n%s", md)
	}
	st := rendered.Charters[0]
	if len(st.Criteria) != 3 || st.Criteria[0].Title != testfixture.RepeatedFirstTitle || st.Criteria[2].Title != testfixture.RepeatedLaterTitle {
		t.Errorf("the JSON's criteria = %+v, want every block in register order", st.Criteria)
	}
}
