package lsptest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ApplyEdit carries out a workspace edit as the editor does when the server
// sends workspace/applyEdit (or the user picks a code action that has an
// edit): CreateFile creates the file (and its folders), text edits rewrite
// it. With Config.ApplyToBuffers an edit of an open document goes to the
// client's copy and is sent as didChange; otherwise every edit is written to
// disk, open documents included (a test that wants the buffer changed sends
// didChange itself). The test client writes nothing outside its root, and,
// like a real editor, refuses an edit that uses what its capabilities did
// not declare (documentChanges, file creation).
//
// A change whose annotation needs confirmation is applied when the user
// confirms it: by default every one is (SetConfirm changes the answer).
func (c *Client) ApplyEdit(edit protocol.WorkspaceEdit) error {
	if err := c.supports(edit); err != nil {
		return err
	}
	confirmed := func(id protocol.ChangeAnnotationIdentifier) bool {
		a, ok := edit.ChangeAnnotations[id]
		if !ok || a.NeedsConfirmation == nil || !*a.NeedsConfirmation {
			return true
		}
		c.mu.Lock()
		confirm := c.confirm
		c.mu.Unlock()
		return confirm == nil || confirm(id, a)
	}
	for _, ch := range edit.DocumentChanges {
		switch x := ch.(type) {
		case *protocol.CreateFile:
			if err := c.createFile(x); err != nil {
				return err
			}
		case *protocol.TextDocumentEdit:
			edits := make([]protocol.TextEdit, 0, len(x.Edits))
			for _, e := range x.Edits {
				switch te := e.(type) {
				case *protocol.TextEdit:
					edits = append(edits, *te)
				case *protocol.AnnotatedTextEdit:
					if confirmed(te.AnnotationID) {
						edits = append(edits, te.TextEdit)
					}
				default:
					return fmt.Errorf("unsupported text edit %T", e)
				}
			}
			if len(edits) == 0 {
				continue
			}
			if err := c.editDocument(x.TextDocument.URI, x.TextDocument.Version, edits); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unsupported document change %T", ch)
		}
	}
	for u, edits := range edit.Changes {
		if err := c.editDocument(u, nil, edits); err != nil {
			return err
		}
	}
	return nil
}

// SetConfirm sets the user's answer when an edit's change annotation needs
// confirmation (nil: yes to every one).
func (c *Client) SetConfirm(confirm func(id protocol.ChangeAnnotationIdentifier, a protocol.ChangeAnnotation) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.confirm = confirm
}

// supports checks an edit against the client's declared capabilities.
func (c *Client) supports(edit protocol.WorkspaceEdit) error {
	if len(edit.DocumentChanges) == 0 {
		return nil
	}
	var we *protocol.WorkspaceEditClientCapabilities
	if w := c.caps.Workspace; w != nil {
		we = w.WorkspaceEdit
	}
	if we == nil || we.DocumentChanges == nil || !*we.DocumentChanges {
		return fmt.Errorf("the edit uses documentChanges, which this client did not declare")
	}
	if we.ChangeAnnotationSupport == nil {
		for _, ch := range edit.DocumentChanges {
			if te, ok := ch.(*protocol.TextDocumentEdit); ok {
				for _, e := range te.Edits {
					if _, ok := e.(*protocol.AnnotatedTextEdit); ok {
						return fmt.Errorf("the edit has change annotations, which this client did not declare")
					}
				}
			}
		}
	}
	for _, ch := range edit.DocumentChanges {
		var kind protocol.ResourceOperationKind
		switch ch.(type) {
		case *protocol.CreateFile:
			kind = protocol.ResourceOperationKindCreate
		case *protocol.RenameFile:
			kind = protocol.ResourceOperationKindRename
		case *protocol.DeleteFile:
			kind = protocol.ResourceOperationKindDelete
		default:
			continue
		}
		if !slices.Contains(we.ResourceOperations, kind) {
			return fmt.Errorf("the edit has a %s operation, which this client did not declare", kind)
		}
	}
	return nil
}

// editDocument applies edits to the open document's buffer (when the client
// keeps buffers) or to the file.
func (c *Client) editDocument(u uri.URI, version *int32, edits []protocol.TextEdit) error {
	if !c.buffers {
		return c.editFile(u, edits)
	}
	_, current, open := c.Text(u)
	if !open {
		return c.editFile(u, edits)
	}
	if version != nil && *version != current {
		return fmt.Errorf("edit for version %d of %s, the editor has version %d", *version, u, current)
	}
	// Sent as one didChange whose changes apply in order: from the last
	// edit to the first, so each range still holds in the text it meets.
	sorted := append([]protocol.TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return before(sorted[j].Range.Start, sorted[i].Range.Start) })
	changes := make([]protocol.TextDocumentContentChangeEvent, 0, len(sorted))
	for _, e := range sorted {
		changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: e.Range, Text: e.NewText})
	}
	return c.change(u, current+1, changes)
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

// applyChanges applies didChange content changes to text, in order.
func applyChanges(text string, changes []protocol.TextDocumentContentChangeEvent) string {
	for _, ch := range changes {
		switch x := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = x.Text
		case *protocol.TextDocumentContentChangePartial:
			sp := source.NewIndex([]byte(text)).Span(toSourceRange(x.Range))
			if sp.End < sp.Start {
				sp.Start, sp.End = sp.End, sp.Start
			}
			text = text[:sp.Start] + x.Text + text[sp.End:]
		}
	}
	return text
}

func toSourceRange(r protocol.Range) source.Range {
	return source.Range{
		Start: source.Position{Line: int(r.Start.Line), Character: int(r.Start.Character)},
		End:   source.Position{Line: int(r.End.Line), Character: int(r.End.Character)},
	}
}

func (c *Client) inRoot(u uri.URI) (string, error) {
	p := filepath.Clean(u.FsPath())
	rel, err := filepath.Rel(c.Root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the test workspace %s", p, c.Root)
	}
	return p, nil
}

func (c *Client) createFile(cf *protocol.CreateFile) error {
	p, err := c.inRoot(cf.URI)
	if err != nil {
		return err
	}
	overwrite, ignore := false, false
	if o := cf.Options; o != nil {
		overwrite = o.Overwrite != nil && *o.Overwrite
		ignore = o.IgnoreIfExists != nil && *o.IgnoreIfExists
	}
	if _, err := os.Stat(p); err == nil && !overwrite {
		if ignore {
			return nil
		}
		return fmt.Errorf("create %s: the file exists", p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, nil, 0o644)
}

// editFile applies edits (ranges in the file's original text) to a file.
func (c *Client) editFile(u uri.URI, edits []protocol.TextEdit) error {
	p, err := c.inRoot(u)
	if err != nil {
		return err
	}
	text, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("edit %s: no such file (create it first)", p)
	}
	if err != nil {
		return err
	}
	ix := source.NewIndex(text)
	type span struct {
		s    source.Span
		text string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		spans = append(spans, span{ix.Span(toSourceRange(e.Range)), e.NewText})
	}
	// Apply from the end, so earlier offsets stay valid.
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].s.Start > spans[j].s.Start })
	out := text
	for _, sp := range spans {
		out = append(append(append([]byte{}, out[:sp.s.Start]...), sp.text...), out[sp.s.End:]...)
	}
	return os.WriteFile(p, out, 0o644)
}
