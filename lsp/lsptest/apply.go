package lsptest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// applyToDisk carries out a workspace edit on the files, as an editor that
// applies and saves it would: CreateFile creates the file (and its folders),
// text edits rewrite it. The test client writes nothing outside its root.
// Open documents are written on disk too; a test that wants the buffer
// changed sends didChange itself.
func (c *Client) applyToDisk(edit protocol.WorkspaceEdit) error {
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
					edits = append(edits, te.TextEdit)
				default:
					return fmt.Errorf("unsupported text edit %T", e)
				}
			}
			if err := c.editFile(x.TextDocument.URI, edits); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unsupported document change %T", ch)
		}
	}
	for u, edits := range edit.Changes {
		if err := c.editFile(u, edits); err != nil {
			return err
		}
	}
	return nil
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
		r := source.Range{
			Start: source.Position{Line: int(e.Range.Start.Line), Character: int(e.Range.Start.Character)},
			End:   source.Position{Line: int(e.Range.End.Line), Character: int(e.Range.End.Character)},
		}
		spans = append(spans, span{ix.Span(r), e.NewText})
	}
	// Apply from the end, so earlier offsets stay valid.
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].s.Start > spans[j].s.Start })
	out := text
	for _, sp := range spans {
		out = append(append(append([]byte{}, out[:sp.s.Start]...), sp.text...), out[sp.s.End:]...)
	}
	return os.WriteFile(p, out, 0o644)
}
