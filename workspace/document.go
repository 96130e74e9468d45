package workspace

import (
	"fmt"
	"sync/atomic"

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
	// spare is the memory the next version's text is written in, made in
	// the background after this version was published (PrepareEdit).
	spare atomic.Pointer[source.Spare]
}

// spareMin is the size from which a document's next text is made ahead
// (PrepareEdit): below it, allocating and copying the text on the edit's
// path costs less than a goroutine. spareRoom is what the next version's
// text may grow by and still be written in the spare (a keystroke, a
// paste); an edit that adds more allocates.
var spareMin = 64 << 10 // a variable for tests

const spareRoom = 4 << 10

// PrepareEdit makes, in the background, the memory d's next version's
// text is written in (source.Spare): a copy of d's text with room to
// grow, so that the next edit's splice moves only the bytes after the
// edit, in memory already made, instead of allocating and copying the
// whole text on the edit's path. Called once d's diagnostics are
// published, while the client reads them; again, or on a small text, it
// does nothing. The spare is one more copy of the text while d is the
// latest version.
func (d *Document) PrepareEdit() {
	if len(d.Text) < spareMin || d.spare.Load() != nil {
		return
	}
	s := source.NewSpare(d.Text, spareRoom)
	if d.spare.CompareAndSwap(nil, s) {
		s.Start()
	}
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
	// The spare, if any, is this Apply's to take: a later one (an error,
	// a version applied twice) allocates.
	text, ix, rest, spare := d.Text, index, changes, d.spare.Swap(nil)
	for i := len(changes) - 1; i >= 0; i-- {
		if changes[i].Whole {
			text, ix, rest, spare = []byte(changes[i].Text), nil, changes[i+1:], nil
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
	next.Text, next.kept = source.ApplyChangesSpare(text, ix, edits, spare)
	if len(rest) == len(changes) {
		next.base = ix // nil when there was none to derive from
	}
	return next, nil
}
