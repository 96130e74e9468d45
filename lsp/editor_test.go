package lsp_test

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// editorCaps are the capabilities of an editor like VS Code: versioned
// workspace edits that may create files, showDocument, plus what lsptest's
// default client declares.
func editorCaps() *protocol.ClientCapabilities {
	yes := true
	return &protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{
			ApplyEdit:             &yes,
			Configuration:         &yes,
			WorkspaceFolders:      &yes,
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes},
			WorkspaceEdit: &protocol.WorkspaceEditClientCapabilities{
				DocumentChanges:    &yes,
				ResourceOperations: []protocol.ResourceOperationKind{protocol.ResourceOperationKindCreate},
			},
		},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &yes},
		},
		Window: &protocol.WindowClientCapabilities{ShowDocument: &protocol.ShowDocumentClientCapabilities{Support: true}},
	}
}

// editorDoc is the editor's copy of an open document: it applies workspace
// edits and typing the way an editor does, sending didChange for each.
type editorDoc struct {
	t       *testing.T
	c       *lsptest.Client
	u       uri.URI
	version int32
	text    string
}

// openDoc saves text at rel and opens it, as a user opening a file.
func openDoc(t *testing.T, c *lsptest.Client, rel, text string) *editorDoc {
	t.Helper()
	c.WriteFile(rel, text)
	return &editorDoc{t: t, c: c, u: c.Open(rel, text), version: 1, text: text}
}

// applyEdit applies a workspace edit the server sent for this document,
// checking that it was made for the version the editor has.
func (d *editorDoc) applyEdit(we protocol.WorkspaceEdit) {
	d.t.Helper()
	var edits []protocol.TextEdit
	edits = append(edits, we.Changes[d.u]...)
	for _, ch := range we.DocumentChanges {
		tde, ok := ch.(*protocol.TextDocumentEdit)
		if !ok || tde.TextDocument.URI != d.u {
			continue
		}
		if v := tde.TextDocument.Version; v == nil || *v != d.version {
			d.t.Fatalf("edit for version %v, the editor has %d", v, d.version)
		}
		for _, e := range tde.Edits {
			te, ok := e.(*protocol.TextEdit)
			if !ok {
				d.t.Fatalf("unexpected edit type %T", e)
			}
			edits = append(edits, *te)
		}
	}
	if len(edits) == 0 {
		d.t.Fatalf("workspace edit has nothing for %s: %+v", d.u, we)
	}
	d.change(edits)
}

// typeAt inserts text at pos, as a user typing.
func (d *editorDoc) typeAt(pos protocol.Position, text string) {
	d.t.Helper()
	d.change([]protocol.TextEdit{{Range: protocol.Range{Start: pos, End: pos}, NewText: text}})
}

// change applies edits (all relative to the current text) from the last to
// the first, so each one's range is still valid, and sends them as one
// didChange.
func (d *editorDoc) change(edits []protocol.TextEdit) {
	d.t.Helper()
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || (a.Line == b.Line && a.Character > b.Character)
	})
	var lsEdits []lsptest.Edit
	for _, e := range edits {
		ix := source.NewIndex([]byte(d.text))
		span := ix.Span(source.Range{
			Start: source.Position{Line: int(e.Range.Start.Line), Character: int(e.Range.Start.Character)},
			End:   source.Position{Line: int(e.Range.End.Line), Character: int(e.Range.End.Character)},
		})
		d.text = d.text[:span.Start] + e.NewText + d.text[span.End:]
		lsEdits = append(lsEdits, lsptest.Edit{
			StartLine: e.Range.Start.Line, StartChar: e.Range.Start.Character,
			EndLine: e.Range.End.Line, EndChar: e.Range.End.Character, Text: e.NewText,
		})
	}
	d.version++
	d.c.Change(d.u, d.version, lsEdits...)
}

// diagnostics waits for the publish of the current version.
func (d *editorDoc) diagnostics() []protocol.Diagnostic {
	d.t.Helper()
	return d.c.WaitDiagnostics(d.u, d.version).Params.Diagnostics
}

// actions asks for the code actions at the start of the document (or at
// rng) with the given diagnostics as context.
func (d *editorDoc) actions(rng protocol.Range, ds []protocol.Diagnostic) []*protocol.CodeAction {
	d.t.Helper()
	res, err := d.c.Server.CodeAction(reqCtx(d.t), &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: d.u},
		Range:        rng,
		Context:      protocol.CodeActionContext{Diagnostics: ds},
	})
	if err != nil {
		d.t.Fatalf("codeAction: %v", err)
	}
	var out []*protocol.CodeAction
	for _, r := range res {
		a, ok := r.(*protocol.CodeAction)
		if !ok {
			d.t.Fatalf("codeAction returned %T", r)
		}
		out = append(out, a)
	}
	return out
}

// action returns the action whose title starts with prefix.
func (d *editorDoc) action(prefix string, ds ...protocol.Diagnostic) *protocol.CodeAction {
	d.t.Helper()
	as := d.actions(protocol.Range{}, ds)
	var titles []string
	for _, a := range as {
		if strings.HasPrefix(a.Title, prefix) {
			return a
		}
		titles = append(titles, a.Title)
	}
	d.t.Fatalf("no code action %q at version %d; got %q", prefix, d.version, titles)
	return nil
}

// run carries out a code action as the editor does: apply its edit, then
// execute its command; an edit the command sends back is applied too. It
// returns the command's result.
func (d *editorDoc) run(a *protocol.CodeAction) map[string]any {
	d.t.Helper()
	if a.Edit != nil {
		d.applyEdit(*a.Edit)
	}
	if a.Command.Command == "" {
		return nil
	}
	before := len(d.c.Edits())
	raw, err := d.c.Server.ExecuteCommand(reqCtx(d.t), &protocol.ExecuteCommandParams{Command: a.Command.Command, Arguments: a.Command.Arguments})
	if err != nil {
		d.t.Fatalf("%s: %v", a.Command.Command, err)
	}
	if edits := d.c.Edits(); len(edits) > before {
		for _, we := range edits[before:] {
			d.applyEdit(we)
		}
	}
	var res map[string]any
	if err := json.Unmarshal(raw, &res); err != nil {
		d.t.Fatalf("%s result %s: %v", a.Command.Command, raw, err)
	}
	return res
}

// cursor is where the server last placed the cursor in this document.
func (d *editorDoc) cursor() protocol.Position {
	d.t.Helper()
	shown := d.c.ShownDocuments()
	if len(shown) == 0 || shown[len(shown)-1].URI != d.u || shown[len(shown)-1].Selection == nil {
		d.t.Fatalf("the server did not place the cursor in %s: %+v", d.u, shown)
	}
	return shown[len(shown)-1].Selection.Start
}

// lineOf is the 0-based line of the first line of text holding needle.
func lineWith(t *testing.T, text, needle string) uint32 {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, needle) {
			return uint32(i)
		}
	}
	t.Fatalf("no line with %q in\n%s", needle, text)
	return 0
}

func diagCode(d protocol.Diagnostic) string {
	s, _ := d.Code.(protocol.String)
	return string(s)
}

func diagCodes(ds []protocol.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, diagCode(d))
	}
	return out
}

// reqCtx bounds one request.
func reqCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), lsptest.Timeout)
	t.Cleanup(cancel)
	return ctx
}
