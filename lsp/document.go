package lsp

import (
	"fmt"
	"sync"

	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Document is one version of an open document. It is immutable: an edit
// makes a new Document, so a diagnostics run or a feature handler can hold a
// version without locking while the next keystroke arrives.
//
// Cached analysis results for a version (a parsed model, say) belong here,
// next to the index, so every feature of one version shares them.
type Document struct {
	URI        uri.URI
	Path       string // operating-system path
	LanguageID string
	Version    int32
	Text       []byte // never modified after the Document is built
	Kind       analysis.Kind

	indexOnce sync.Once
	index     *source.Index
	// base is the previous version's index: this version's is derived from
	// it (only the edited lines are rescanned), then base is dropped.
	base *source.Index

	rp1Once sync.Once
	rp1     *rp1.Charter
}

func newDocument(u uri.URI, path, languageID string, version int32, text []byte, index *source.Index) *Document {
	d := &Document{URI: u, Path: path, LanguageID: languageID, Version: version, Text: text}
	d.Kind = analysis.Classify(path, text)
	if index != nil {
		d.indexOnce.Do(func() { d.index = index })
	}
	return d
}

// Index is the document's line index, built on first use and shared by
// every reader of this version.
func (d *Document) Index() *source.Index {
	d.indexOnce.Do(func() {
		if d.base != nil {
			d.index, d.base = d.base.Update(d.Text), nil
		} else {
			d.index = source.NewIndex(d.Text)
		}
	})
	return d.index
}

// RP1 is the document parsed as an rp1 charter, parsed once per version and
// shared by hover, code lens, code actions and symbols. Callers must not
// modify it.
func (d *Document) RP1() *rp1.Charter {
	d.rp1Once.Do(func() { d.rp1 = rp1.Parse(d.Text) })
	return d.rp1
}

// TooLarge reports whether the document is over the analysis size limit:
// features refuse it, its diagnostics say file-too-large.
func (d *Document) TooLarge() bool { return len(d.Text) > analysis.MaxFileSize }

// IsCharter reports whether the server analyses this document at all.
func (d *Document) IsCharter() bool { return d.Kind != analysis.KindNone }

// Change is one content change of a didChange notification, in LSP
// positions. Whole replaces the entire text (Range is then ignored).
type Change struct {
	Whole bool
	Range source.Range
	Text  string
}

// applyChanges returns the version that results from applying changes in
// order. Ranges are clamped to the document (as LSP asks); a reversed range
// is treated as its normalised form. Each change is spliced into a fresh
// buffer, so the previous version stays intact for readers that hold it.
//
// A change needs the line index of the text it applies to: the previous
// version's (usually already built) for the first change, a fresh one for each
// further change. The new version's index is built lazily on first use, so a
// single-change keystroke (the common case) indexes the document once.
func (d *Document) applyChanges(version int32, changes []Change) (*Document, error) {
	if version <= d.Version {
		return nil, fmt.Errorf("version %d is not newer than %d", version, d.Version)
	}
	text := d.Text
	ix := d.Index()
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
	next := newDocument(d.URI, d.Path, d.LanguageID, version, text, nil)
	if len(changes) == 1 && !changes[0].Whole {
		next.base = d.Index()
	}
	return next, nil
}
