package lsp_test

import (
	"context"
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

// editorDoc is the editor's copy of an open document: it applies typing
// the way an editor does, sending didChange for each.
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

// resolvingCaps are editorCaps plus what VS Code and Neovim declare for
// code actions: they keep an action's data and resolve its edit lazily
// (codeAction/resolve).
func resolvingCaps() *protocol.ClientCapabilities {
	c := editorCaps()
	yes := true
	c.TextDocument.CodeAction = &protocol.CodeActionClientCapabilities{
		DataSupport:    &yes,
		ResolveSupport: protocol.ClientCodeActionResolveOptions{Properties: []string{"edit"}},
	}
	return c
}
