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
	// from it (only the edited lines are rescanned); kept is what the edit
	// left of base's text, so the two texts are not compared to find it.
	base *source.Index
	kept source.Kept
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

// Apply returns the version that results from applying changes in order
// (source.ApplyChanges: ranges clamped to the document as LSP asks, a
// reversed range normalised, work linear in the text and the changes). A
// whole-document change discards the ones before it. The previous version
// stays intact for snapshots that hold it. index is the line index of d's
// text when the caller has it (nil: built here when needed); the new
// version's index is derived from it.
func (d *Document) Apply(version int32, changes []TextChange, index *source.Index) (*Document, error) {
	if version <= d.Version {
		return nil, fmt.Errorf("version %d is not newer than %d", version, d.Version)
	}
	text, ix, rest := d.Text, index, changes
	for i := len(changes) - 1; i >= 0; i-- {
		if changes[i].Whole {
			text, ix, rest = []byte(changes[i].Text), nil, changes[i+1:]
			break
		}
	}
	if ix == nil && len(rest) == 1 && len(rest) == len(changes) {
		ix = source.NewIndex(text) // the splice needs it; the next version's derives from it
	}
	edits := make([]source.Change, len(rest))
	for i, c := range rest {
		edits[i] = source.Change{Range: c.Range, Text: c.Text}
	}
	next := &Document{Path: d.Path, Version: version, parsers: d.parsers}
	next.Text, next.kept = source.ApplyChangesKept(text, ix, edits)
	if len(rest) == len(changes) {
		next.base = ix // nil when there was none to derive from
	}
	return next, nil
}
