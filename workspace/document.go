package workspace

import (
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Document is one version of a document open in the editor: its text wins
// over the disk in every snapshot that holds it. It is immutable: an edit
// makes a new Document, so a snapshot (and every computation on it) keeps
// its version while the next keystroke arrives.
type Document struct {
	Path    string // operating-system path, cleaned
	Version int32
	Text    []byte // never modified after the Document is built

	// base is the previous version's line index: this version's is derived
	// from it (only the edited lines are rescanned).
	base *source.Index
	// parser is shared by the versions of one document, so a keystroke
	// re-parses only the blocks it touched (criteria.md).
	parsers *parsers
}

// NewDocument is the first version of an opened document.
func NewDocument(path string, version int32, text []byte) *Document {
	return &Document{Path: path, Version: version, Text: text, parsers: new(parsers)}
}

// TextChange is one content change of an edit, in LSP positions (UTF-16
// columns). Whole replaces the entire text (Range is then ignored).
type TextChange struct {
	Whole bool
	Range source.Range
	Text  string
}

// Apply returns the version that results from applying changes in order.
// Ranges are clamped to the document (as LSP asks); a reversed range is
// treated as its normalised form. Each change is spliced into a fresh
// buffer, so the previous version stays intact for snapshots that hold it.
// index is the line index of d's text when the caller has it (nil: built
// here).
func (d *Document) Apply(version int32, changes []TextChange, index *source.Index) (*Document, error) {
	if version <= d.Version {
		return nil, fmt.Errorf("version %d is not newer than %d", version, d.Version)
	}
	text := d.Text
	ix := index
	if ix == nil {
		ix = source.NewIndex(text)
	}
	first := ix
	for _, c := range changes {
		if c.Whole {
			text = []byte(c.Text)
			ix = nil
			continue
		}
		if ix == nil {
			ix = source.NewIndex(text)
		}
		span := ix.Span(c.Range)
		if span.End < span.Start {
			span.Start, span.End = span.End, span.Start
		}
		next := make([]byte, 0, len(text)-span.Len()+len(c.Text))
		next = append(next, text[:span.Start]...)
		next = append(next, c.Text...)
		next = append(next, text[span.End:]...)
		text = next
		ix = nil
	}
	next := &Document{Path: d.Path, Version: version, Text: text, parsers: d.parsers}
	if len(changes) == 1 && !changes[0].Whole {
		next.base = first
	}
	return next, nil
}
