package lsp_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// A charter with recorded evidence for VAL-AUTH-001: two runs (one with a
// narrative), its criterion-state.json entry, REPORT.md, and a test that
// cites it. Everything was written by the tool at toolWrite.
var renameCharter = map[string]string{
	".pi/charters/auth/charter.md": "# Charter: Sign in\n\n## Objective\n\nSigned tokens for the API.\n",
	".pi/charters/auth/criteria.md": `# Criteria

## m1-login Sign in

### VAL-AUTH-001 — Login returns a signed token
Verifier: command
Command: go test ./src/auth/...
Fresh evidence required: true

### VAL-AUTH-002 — Tokens expire after 15 minutes
Verifier: manual
Because: checked by hand

### VAL-AUTH-003 — Logout revokes the token
Verifier: command
Command: go test ./src/auth/ -run Logout
`,
	".pi/charters/auth/REPORT.md": "# Sign in\n\n## Objective\n\nSigned tokens.\n\n## Outcome\n\nVAL-AUTH-001 passes since the second run.\n\n## Notes\n\nNone.\n",
	".pi/charters/auth/criterion-state.json": `{
  "charterId": "auth",
  "criteria": {
    "VAL-AUTH-001": {
      "outcome": "pass",
      "lastEvidencePath": "work/m1-login/evidence/2026-11-10T08-00-00-000Z/evidence.json",
      "lastTs": "2026-11-10T08:00:00.000Z",
      "lastSummary": "go test ./src/auth/... ok",
      "lastFeatureId": "m1-login",
      "source": "verifier",
      "recordedBy": "agent:root"
    },
    "VAL-AUTH-002": {
      "outcome": "fail",
      "lastEvidencePath": "work/m1-login/evidence/2026-11-09T08-00-00-000Z/evidence.json",
      "lastTs": "2026-11-09T08:00:00.000Z",
      "lastSummary": "tokens lived an hour",
      "lastFeatureId": "m1-login",
      "source": "manual",
      "recordedBy": "user",
      "because": "checked by hand"
    }
  },
  "lastToolWriteAt": "2026-11-10T08:00:00.000Z"
}
`,
	".pi/charters/auth/work/m1-login/evidence/2026-11-09T08-00-00-000Z/evidence.json": `[
  {"charterId": "auth", "criterionId": "VAL-AUTH-001", "featureId": "m1-login", "outcome": "fail", "summary": "go test ./src/auth/... failed", "source": "verifier", "recordedBy": "agent:root", "ts": "2026-11-09T07:00:00.000Z"},
  {"charterId": "auth", "criterionId": "VAL-AUTH-002", "featureId": "m1-login", "outcome": "fail", "summary": "tokens lived an hour", "source": "manual", "recordedBy": "user", "because": "checked by hand", "ts": "2026-11-09T08:00:00.000Z"}
]
`,
	".pi/charters/auth/work/m1-login/evidence/2026-11-10T08-00-00-000Z/evidence.json": `{
  "charterId": "auth",
  "criterionId": "VAL-AUTH-001",
  "featureId": "m1-login",
  "outcome": "pass",
  "summary": "go test ./src/auth/... ok",
  "source": "verifier",
  "recordedBy": "agent:root",
  "narrativePath": "narrative.md",
  "ts": "2026-11-10T08:00:00.000Z"
}
`,
	".pi/charters/auth/work/m1-login/evidence/2026-11-10T08-00-00-000Z/narrative.md": "The second run of VAL-AUTH-001 passed.\n",
	"src/auth/login.go":   "package auth\n\nfunc Login() string { return \"token\" }\n",
	"tests/login.test.ts": "import { test } from \"bun:test\";\n\ntest(\"VAL-AUTH-001: login returns a signed token\", () => {});\n",
}

var toolWrite = time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)

// renameCaps are an editor's that shows change annotations (VS Code's).
func renameCaps() *protocol.ClientCapabilities {
	yes := true
	return &protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{
			ApplyEdit: &yes, Configuration: &yes, WorkspaceFolders: &yes,
			WorkspaceEdit: &protocol.WorkspaceEditClientCapabilities{
				DocumentChanges:         &yes,
				ChangeAnnotationSupport: &protocol.ChangeAnnotationsSupportOptions{GroupsOnLabel: &yes},
			},
		},
	}
}

// cliStatus is `charter-lsp status DIR --format json` as of a fixed time.
func cliStatus(t *testing.T, bin, dir string) string {
	t.Helper()
	out, err := exec.Command(bin, "status", dir, "--format", "json", "--now", "2026-11-20T00:00:00Z").CombinedOutput()
	if err != nil {
		t.Fatalf("charter-lsp status: %v\n%s", err, out)
	}
	return string(out)
}

// mentions lists the files under root that still name id (EachVAL).
func mentions(t *testing.T, root, id string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		ids.EachVAL(src, func(tok string, _ source.Span) {
			if tok == id {
				rel, _ := filepath.Rel(root, p)
				out = append(out, filepath.ToSlash(rel))
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Renaming VAL-AUTH-001 to VAL-AUTH-010 in a charter with evidence: every
// reference moves; the evidence runs only when the user confirms the
// change annotation; and, confirmed, `charter-lsp status` says afterwards
// exactly what it said before, but for the id.
func TestRenameVALWithEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	for _, confirm := range []bool{false, true} {
		name := "declined"
		if confirm {
			name = "confirmed"
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			testfixture.WriteFiles(t, root, renameCharter)
			testfixture.SetTimes(t, root, toolWrite)
			dir := filepath.Join(root, ".pi/charters/auth")
			before := cliStatus(t, bin, dir)
			if !strings.Contains(before, `"VAL-AUTH-001"`) {
				t.Fatalf("status before does not show VAL-AUTH-001:\n%s", before)
			}
			history := map[string]string{}
			for _, rel := range []string{
				"work/m1-login/evidence/2026-11-09T08-00-00-000Z/evidence.json",
				"work/m1-login/evidence/2026-11-10T08-00-00-000Z/evidence.json",
				"work/m1-login/evidence/2026-11-10T08-00-00-000Z/narrative.md",
			} {
				b, _ := os.ReadFile(filepath.Join(dir, rel))
				history[rel] = string(b)
			}

			c := lsptest.Start(t, lsptest.Config{Root: root, Capabilities: renameCaps()})
			u := c.Open(".pi/charters/auth/criteria.md", renameCharter[".pi/charters/auth/criteria.md"])
			c.Sync()
			var asked []string
			c.SetConfirm(func(_ protocol.ChangeAnnotationIdentifier, a protocol.ChangeAnnotation) bool {
				asked = append(asked, a.Label)
				return confirm
			})
			at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 4, Character: 8}}
			prep, err := c.Server.PrepareRename(t.Context(), &protocol.PrepareRenameParams{TextDocumentPositionParams: at})
			if err != nil {
				t.Fatal(err)
			}
			if p, ok := prep.(*protocol.PrepareRenamePlaceholder); !ok || p.Placeholder != "VAL-AUTH-001" {
				t.Fatalf("prepareRename = %#v", prep)
			}
			edit, err := c.Server.Rename(t.Context(), &protocol.RenameParams{TextDocumentPositionParams: at, NewName: "VAL-AUTH-010"})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.ApplyEdit(*edit); err != nil {
				t.Fatal(err)
			}
			if len(asked) == 0 {
				t.Errorf("the user was never asked before the evidence changed")
			}

			left := mentions(t, root, "VAL-AUTH-001")
			for rel, text := range history {
				b, _ := os.ReadFile(filepath.Join(dir, rel))
				if changed := string(b) != text; changed != confirm {
					t.Errorf("%s changed: %v, want %v (confirmed: %v)", rel, changed, confirm, confirm)
				}
			}
			if confirm {
				if len(left) > 0 {
					t.Errorf("still naming VAL-AUTH-001: %v", left)
				}
				after := cliStatus(t, bin, dir)
				if want := strings.ReplaceAll(before, "VAL-AUTH-001", "VAL-AUTH-010"); after != want {
					t.Errorf("status after the rename differs from before but for the id:\n%s", lineDiff(want, after))
				}
			} else {
				for _, rel := range left {
					if !strings.Contains(rel, "/work/") {
						t.Errorf("%s still names VAL-AUTH-001, and is no evidence", rel)
					}
				}
				if len(left) != 3 {
					t.Errorf("the evidence should keep VAL-AUTH-001 in its three files, found it in %v", left)
				}
			}
		})
	}
}

// lineDiff shows the lines of got that differ from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("-" + a + "\n+" + c + "\n")
		}
	}
	return b.String()
}

// A rename never asks the editor to write through a symbolic link, even
// one that stays inside the workspace: the project is opened through a
// link to another folder of the workspace, so the rename is refused with
// the reason and nothing changes. References still answer.
func TestRenameRefusesLinkedFile(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, filepath.Join(root, "real"), renameCharter)
	if err := os.Symlink("real", filepath.Join(root, "app")); err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, lsptest.Config{Root: root, Capabilities: renameCaps()})
	u := c.Open("app/.pi/charters/auth/criteria.md", renameCharter[".pi/charters/auth/criteria.md"])
	c.Sync()
	at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 4, Character: 8}}
	refs, err := c.Server.References(t.Context(), &protocol.ReferenceParams{TextDocumentPositionParams: at, Context: protocol.ReferenceContext{IncludeDeclaration: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) < 5 {
		t.Fatalf("references through the link: %v", refs)
	}
	_, err = c.Server.Rename(t.Context(), &protocol.RenameParams{TextDocumentPositionParams: at, NewName: "VAL-AUTH-010"})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("rename through a link: %v, want a refusal naming the link", err)
	}
	if msgs := c.Messages(); len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1].Message, filepath.Join(root, "app")) {
		t.Errorf("the user was not told which link: %+v", msgs)
	}
	if left := mentions(t, filepath.Join(root, "real"), "VAL-AUTH-010"); len(left) > 0 {
		t.Errorf("files changed: %v", left)
	}
}

// The "cited in" lens follows the code on disk: a test that starts citing
// the VAL, reported by the file watcher, makes the server ask the editor
// to refresh its lenses, and the lens counts it.
func TestCitesLensFollowsDisk(t *testing.T) {
	root := t.TempDir()
	testfixture.WriteFiles(t, root, renameCharter)
	yes := true
	caps := renameCaps()
	caps.Workspace.CodeLens = &protocol.CodeLensWorkspaceClientCapabilities{RefreshSupport: &yes}
	caps.Workspace.InlayHint = &protocol.InlayHintWorkspaceClientCapabilities{RefreshSupport: &yes}
	c := lsptest.Start(t, lsptest.Config{Root: root, Capabilities: caps})
	u := c.Open(".pi/charters/auth/criteria.md", renameCharter[".pi/charters/auth/criteria.md"])
	c.Sync()
	lens := func() []string {
		t.Helper()
		ls, err := c.Server.CodeLens(t.Context(), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range ls {
			if strings.HasPrefix(l.Command.Title, "cited in") {
				out = append(out, fmt.Sprintf("%d %s", l.Range.Start.Line+1, l.Command.Title))
			}
		}
		return out
	}
	if got := fmt.Sprint(lens()); got != "[5 cited in 1 place]" {
		t.Fatalf("lenses before: %s", got)
	}
	c.WriteFile("src/auth/login_test.go", "package auth\n\n// VAL-AUTH-001 and VAL-AUTH-003 in one test.\n")
	before := c.ViewRefreshes()
	c.FilesChanged(protocol.FileChangeTypeCreated, "src/auth/login_test.go")
	c.Sync()
	if c.ViewRefreshes() != before+2 {
		t.Errorf("view refreshes: %d, want %d (lenses and inlay hints)", c.ViewRefreshes(), before+2)
	}
	if got := fmt.Sprint(lens()); got != "[5 cited in 2 places (2 files) 14 cited in 1 place]" {
		t.Errorf("lenses after: %s", got)
	}
}
