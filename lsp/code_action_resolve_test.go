package lsp_test

// The folder migration's edit is made when the user picks the action
// (codeAction/resolve) for a client that resolves edits lazily, and comes
// with the action for one that does not. The migrations themselves are
// marker tests (testdata/markers/pi/migrate_v3.txt,
// testdata/markers/charters/migrate*.txt).

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
	"github.com/charter-lsp/charter-lsp/migrate"
)

// annotatingCaps are editorCaps with change annotations, as VS Code
// declares them; resolving adds lazy resolution of a code action's edit.
func annotatingCaps(resolving bool) *protocol.ClientCapabilities {
	c := editorCaps()
	if resolving {
		c = resolvingCaps()
	}
	c.Workspace.WorkspaceEdit.ChangeAnnotationSupport = &protocol.ChangeAnnotationsSupportOptions{}
	return c
}

// migrationOffered is the folder migration among the actions at the start
// of u, or nil.
func migrationOffered(t *testing.T, c *lsptest.Client, u uri.URI) *protocol.CodeAction {
	t.Helper()
	return actionTitled(t, c, u, migrate.ActionTitle)
}

// actionTitled is the action titled title among those at the start of u,
// or nil.
func actionTitled(t *testing.T, c *lsptest.Client, u uri.URI, title string) *protocol.CodeAction {
	t.Helper()
	res, err := c.Server.CodeAction(reqCtx(t), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if a, ok := r.(*protocol.CodeAction); ok && a.Title == title {
			return a
		}
	}
	return nil
}

// openRegister starts a client of caps on project and opens its
// register, criteriaRel.
func openRegister(t *testing.T, project string, caps *protocol.ClientCapabilities) (*lsptest.Client, uri.URI) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(project, filepath.FromSlash(criteriaRel)))
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, lsptest.Config{Root: project, Capabilities: caps, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(criteriaRel, string(src))
	c.WaitDiagnostics(u, 1)
	return c, u
}

// madeNow are the parts of a migration that name the moment it was
// planned: the new id's date and time, state.json's timestamps.
var madeNow = regexp.MustCompile(`\d{8}-\d{6}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

func editText(t *testing.T, e *protocol.WorkspaceEdit) string {
	t.Helper()
	raw, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return madeNow.ReplaceAllString(string(raw), "NOW")
}

// A client that resolves edits is offered the migration without its edit;
// resolving it gives the edit (and change annotations) a client without
// resolve support gets inline, and the editor can apply it.
func TestMigrationResolvedWhenPicked(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	plain, pu := openRegister(t, project, annotatingCaps(false))
	inline := migrationOffered(t, plain, pu)
	if inline == nil || inline.Edit == nil {
		t.Fatalf("a client without resolve support: got %+v, want the migration with its edit", inline)
	}
	if len(inline.Data) != 0 {
		t.Errorf("an inline migration carries data: %s", inline.Data)
	}

	c, u := openRegister(t, project, annotatingCaps(true))
	lazy := migrationOffered(t, c, u)
	if lazy == nil {
		t.Fatal("no migration offered to a client that resolves edits")
	}
	if lazy.Edit != nil || len(lazy.Data) == 0 || lazy.Kind == nil || *lazy.Kind != *inline.Kind {
		t.Fatalf("offered %+v, want the kind %v, data and no edit", lazy, *inline.Kind)
	}
	resolved, err := c.Server.CodeActionResolve(reqCtx(t), lazy)
	if err != nil {
		t.Fatal(err)
	}
	if resolved.Title != lazy.Title || resolved.Edit == nil {
		t.Fatalf("resolved to %+v, want the action with its edit", resolved)
	}
	if len(resolved.Edit.ChangeAnnotations) == 0 {
		t.Error("the resolved edit has no change annotations: the editor would not preview it")
	}
	if got, want := editText(t, resolved.Edit), editText(t, inline.Edit); got != want {
		t.Errorf("resolved edit differs from the inline one:\n got %s\nwant %s", got, want)
	}
	if err := c.ApplyEdit(*resolved.Edit); err != nil {
		t.Fatal(err)
	}
	made, _ := filepath.Glob(filepath.Join(project, ".charters", "*", "charter.md"))
	if len(made) != 1 {
		t.Errorf("applying the resolved edit made %v, want one new charter.md", made)
	}
}

// An action offered for one version of the document is ContentModified
// once the document changed: the editor asks for the actions again.
func TestMigrationResolveStale(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	c, u := openRegister(t, project, resolvingCaps())
	a := migrationOffered(t, c, u)
	if a == nil {
		t.Fatal("no migration offered")
	}
	c.Change(u, 2, lsptest.Edit{Text: "\n"})
	c.WaitDiagnostics(u, 2)
	_, err := c.Server.CodeActionResolve(reqCtx(t), a)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != protocol.CodeContentModified {
		t.Errorf("resolving a stale action: err = %v, want ContentModified", err)
	}
	if fresh := migrationOffered(t, c, u); fresh == nil {
		t.Error("no migration offered again for the new version")
	} else if _, err := c.Server.CodeActionResolve(reqCtx(t), fresh); err != nil {
		t.Errorf("resolving the action offered again: %v", err)
	}
}

// A migration migrate refuses when it plans it (here: a heading inside a
// fenced block would end the new Objective early) is offered on its
// preconditions; picking it answers migrate's reason, which the user is
// shown, and nothing is written. A client without resolve support is not
// offered it at all.
func TestMigrationRefusedAtResolve(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".pi", "charters", "restore")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"charter.md":  "# Charter: Restore\n\n## Objective\n\nRun this:\n\n```sh\n# restore\n./restore.sh\n```\n\nand check the rows.\n",
		"criteria.md": "# Criteria\n\n## m1 Restore\n\n### VAL-A-001 — Rows come back\nVerifier: command\nCommand: ./check.sh\n",
		"state.json":  `{"charterId": "restore", "objective": "Restore the rows", "status": "active"}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := ".pi/charters/restore/criteria.md"
	open := func(caps *protocol.ClientCapabilities) (*lsptest.Client, uri.URI) {
		c := lsptest.Start(t, lsptest.Config{Root: root, Capabilities: caps, InitializationOptions: map[string]any{"debounceMs": 0}})
		u := c.Open(rel, files["criteria.md"])
		c.WaitDiagnostics(u, 1)
		return c, u
	}

	plain, pu := open(editorCaps())
	if a := migrationOffered(t, plain, pu); a != nil {
		t.Errorf("a refused migration was offered inline: %+v", a)
	}

	c, u := open(resolvingCaps())
	a := migrationOffered(t, c, u)
	if a == nil {
		t.Fatal("no migration offered on its preconditions")
	}
	_, err := c.Server.CodeActionResolve(reqCtx(t), a)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || !strings.Contains(rpcErr.Message, "migration refused") {
		t.Fatalf("resolving a refused migration: err = %v, want migrate's refusal", err)
	}
	c.Sync()
	shown := false
	for _, m := range c.Messages() {
		shown = shown || m.Message == rpcErr.Message
	}
	if !shown {
		t.Errorf("the user was not shown why: messages %+v", c.Messages())
	}
	if _, err := os.Stat(filepath.Join(root, ".charters")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused migration wrote .charters: %v", err)
	}
}

// VS Code resolves every action it is about to run that lacks an edit, a
// command action too: each action the server offers comes back from
// resolve without an error, a migration with its edit, any other as it was
// offered; data the server did not make fills in nothing.
func TestResolveAnswersEveryOfferedAction(t *testing.T) {
	c, u := openRP1(t, scratchPadCharter, resolvingCaps())
	res, err := c.Server.CodeAction(reqCtx(t), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 12}}})
	if err != nil {
		t.Fatal(err)
	}
	commands := 0
	for _, r := range res {
		a, ok := r.(*protocol.CodeAction)
		if !ok || a.Edit != nil {
			continue
		}
		got, err := c.Server.CodeActionResolve(reqCtx(t), a)
		if err != nil {
			t.Errorf("resolving %q: %v", a.Title, err)
			continue
		}
		if a.Title == rp1.MigrateTitle {
			if got.Edit == nil {
				t.Errorf("the migration resolved without its edit: %+v", got)
			}
			continue
		}
		commands++
		want, _ := json.Marshal(a)
		if have, _ := json.Marshal(got); string(have) != string(want) {
			t.Errorf("resolving %q changed it:\n got %s\nwant %s", a.Title, have, want)
		}
	}
	if commands == 0 {
		t.Fatalf("no command action offered on the scratch-pad charter to resolve: %+v", res)
	}
	foreign := &protocol.CodeAction{Title: "x", Data: protocol.LSPAny(`{"action":"format-disk"}`)}
	if got, err := c.Server.CodeActionResolve(reqCtx(t), foreign); err != nil || got.Edit != nil || got.Command.Command != "" {
		t.Errorf("resolving data the server did not make: %+v, %v; want it back as it was", got, err)
	}
}

// Offered without its plan, the migration still goes nowhere outside the
// workspace: with .charters a symbolic link to a folder elsewhere, it is
// not offered.
func TestMigrationOfferStaysInWorkspace(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	if err := os.Symlink(t.TempDir(), filepath.Join(project, ".charters")); err != nil {
		t.Skip("no symlinks here")
	}
	c, u := openRegister(t, project, resolvingCaps())
	if a := migrationOffered(t, c, u); a != nil {
		t.Errorf("a migration into a .charters that leads outside the workspace was offered: %+v", a)
	}
}

// scratchPadCharter is an rp1 charter of the scratch-pad era: five
// sections and an answer in the scratch pad.
const scratchPadCharter = "# Project Charter: plantcare\n\n**Status**: Draft\n**Created**: 2026-11-18\n\n" +
	"## Problem & Context\n\nPeople kill houseplants. Alarms do not know the plant.\n\n" +
	"## Scratch Pad\n<!-- Mode: UPDATE -->\n\n### Q1: Target Users\n**Asked**: Who?\n**Answer**: Renters with `5-30` plants.\n\n<!-- End scratch pad -->\n"

// openRP1 starts a client of caps, which applies edits to its buffers, on
// a new project and opens its rp1 charter, text.
func openRP1(t *testing.T, text string, caps *protocol.ClientCapabilities) (*lsptest.Client, uri.URI) {
	t.Helper()
	c := lsptest.Start(t, lsptest.Config{Root: t.TempDir(), Capabilities: caps, ApplyToBuffers: true, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(".rp1/context/charter.md", text)
	c.WaitDiagnostics(u, 1)
	return c, u
}

// The rp1 rewrite goes the folder migration's way: a client that resolves
// edits is offered it on the charter's format alone, and resolving it
// gives the edit a client without resolve support gets inline, which
// rewrites the charter in the skeleton format.
func TestRP1MigrationResolvedWhenPicked(t *testing.T) {
	plain, pu := openRP1(t, scratchPadCharter, annotatingCaps(false))
	inline := actionTitled(t, plain, pu, rp1.MigrateTitle)
	if inline == nil || inline.Edit == nil || len(inline.Data) != 0 {
		t.Fatalf("a client without resolve support: got %+v, want the rewrite with its edit and no data", inline)
	}

	c, u := openRP1(t, scratchPadCharter, annotatingCaps(true))
	lazy := actionTitled(t, c, u, rp1.MigrateTitle)
	if lazy == nil {
		t.Fatal("no rewrite offered to a client that resolves edits")
	}
	if lazy.Edit != nil || len(lazy.Data) == 0 || lazy.Kind == nil || *lazy.Kind != *inline.Kind {
		t.Fatalf("offered %+v, want the kind %v, data and no edit", lazy, *inline.Kind)
	}
	resolved, err := c.Server.CodeActionResolve(reqCtx(t), lazy)
	if err != nil {
		t.Fatal(err)
	}
	if resolved.Title != lazy.Title || resolved.Edit == nil || len(resolved.Edit.ChangeAnnotations) == 0 {
		t.Fatalf("resolved to %+v, want the action with its annotated edit", resolved)
	}
	// The same edit, in another project.
	if got, want := editText(t, resolved.Edit), strings.ReplaceAll(editText(t, inline.Edit), string(pu), string(u)); got != want {
		t.Errorf("resolved edit differs from the inline one:\n got %s\nwant %s", got, want)
	}
	if err := c.ApplyEdit(*resolved.Edit); err != nil {
		t.Fatal(err)
	}
	c.WaitDiagnostics(u, 2)
	text, _, _ := c.Text(u)
	if !strings.Contains(text, "## Target Users\n\nRenters with `5-30` plants.") || strings.Contains(text, "Scratch Pad") {
		t.Errorf("the resolved edit left:\n%s", text)
	}
	if a := actionTitled(t, c, u, rp1.MigrateTitle); a != nil {
		t.Errorf("a skeleton charter is offered the rewrite again: %+v", a)
	}
}

// An rp1 rewrite offered for one version of the charter is ContentModified
// once it changed; an rp1 action's data names the rp1 rewrite, which a
// folder migration's data does not make.
func TestRP1MigrationResolveStale(t *testing.T) {
	c, u := openRP1(t, scratchPadCharter, resolvingCaps())
	a := actionTitled(t, c, u, rp1.MigrateTitle)
	if a == nil {
		t.Fatal("no rewrite offered")
	}
	var data map[string]any
	if err := json.Unmarshal(a.Data, &data); err != nil || data["action"] == "migrate" {
		t.Errorf("the rewrite's data %s names the folder migration", a.Data)
	}
	folder := *a
	folder.Data = protocol.LSPAny(strings.Replace(string(a.Data), `"action":"`+data["action"].(string)+`"`, `"action":"migrate"`, 1))
	if _, err := c.Server.CodeActionResolve(reqCtx(t), &folder); err == nil {
		t.Error("an rp1 charter resolved as a folder migration")
	}
	c.Change(u, 2, lsptest.Edit{Text: "\n"})
	c.WaitDiagnostics(u, 2)
	_, err := c.Server.CodeActionResolve(reqCtx(t), a)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != protocol.CodeContentModified {
		t.Errorf("resolving a stale rewrite: err = %v, want ContentModified", err)
	}
}
