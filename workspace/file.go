package workspace

import (
	"context"
	"errors"
	"io/fs"
	"sync"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
)

// File is one version of one file as a snapshot sees it: an open
// document's text, or what the disk held when it was first read. Everything
// derived from the text alone (kind, line index, parse) is computed once
// and shared by every snapshot holding this File: a keystroke makes a new
// File for the edited document only.
type File struct {
	Path    string
	Text    []byte // nil when Err is set; never modified
	Version int32  // the open document's version; 0 for a file read from disk
	// Err says why there is no text: fs.ErrNotExist, a *vfs.TooLargeError,
	// a *vfs.NotRegularError (a FIFO, a device, a folder), a read error.
	Err error
	// Size is the size on disk (or of the text, for an open document that
	// is not on disk); ModTime is the disk's time (the zero time when the
	// file is not on disk): freshness compares file times, and typing in
	// an open document has not changed it on disk yet.
	Size    int64
	ModTime time.Time
	Mode    fs.FileMode

	doc *Document // the open document, or nil

	kindOnce sync.Once
	kind     analysis.Kind

	indexOnce sync.Once
	index     *source.Index

	rp1Mu sync.Mutex
	rp1   *promise[*rp1.Charter]

	// busy counts the file's computations in flight (the session's), so
	// that Session.Wait sees a parse a cancelled request left running.
	busy       *inflight.Counter
	criteriaMu sync.Mutex
	criteria   *promise[*pi.Criteria]
}

// Open reports whether the file is an open document.
func (f *File) Open() bool { return f.doc != nil }

// PrepareEdit makes, in the background, the memory the open document's
// next version's text is written in (Document.PrepareEdit); for a file
// that is not open it does nothing.
func (f *File) PrepareEdit() {
	if f.doc != nil {
		f.doc.PrepareEdit()
	}
}

// Exists reports whether the file has text to analyse.
func (f *File) Exists() bool { return f.Err == nil }

// TooLarge reports whether the file is over the analysis size limit; such
// a file is never parsed, and features answer nothing for it.
func (f *File) TooLarge() bool {
	_, tooLarge := vfs.IsTooLarge(f.Err)
	return tooLarge || int64(len(f.Text)) > analysis.MaxFileSize
}

// Kind says which charter file this is, from its path and content.
func (f *File) Kind() analysis.Kind {
	f.kindOnce.Do(func() {
		switch {
		case f.TooLarge():
			// Judged by the name alone: the content is not read.
			f.kind = analysis.Classify(f.Path, []byte("x"))
		case errors.Is(f.Err, fs.ErrNotExist):
			f.kind = analysis.Classify(f.Path, nil)
		default:
			f.kind = analysis.Classify(f.Path, f.Text)
		}
	})
	return f.kind
}

// Index is the file's line index, the one position mapper of this text. An
// edited document's index is derived from the previous version's.
func (f *File) Index() *source.Index {
	f.indexOnce.Do(func() {
		if f.doc != nil && f.doc.base != nil {
			f.index = f.doc.base.Update(f.Text, f.doc.kept)
		} else {
			f.index = source.NewIndex(f.Text)
		}
	})
	return f.index
}

// RP1 is the file parsed as an rp1 charter. Callers must not modify it.
func (f *File) RP1() *rp1.Charter {
	ch, _ := f.rp1Under(context.Background())
	return ch
}

// rp1Under is RP1 for a computation under ctx: the parse stops when every
// caller waiting for it has given up (a newer version's diagnostics
// superseded this one's), and is started again by the next one.
func (f *File) rp1Under(ctx context.Context) (*rp1.Charter, error) {
	f.rp1Mu.Lock()
	if f.rp1 == nil {
		f.rp1 = newPromise(f.busy, func(ctx context.Context) (*rp1.Charter, error) {
			return rp1.ParseContext(ctx, f.Text)
		})
	}
	p := f.rp1
	f.rp1Mu.Unlock()
	return p.get(ctx)
}

// Criteria is the file parsed as a pi-charter criteria.md; successive
// versions of an open document reuse the blocks a keystroke left alone.
// Callers must not modify it.
func (f *File) Criteria() *pi.Criteria {
	c, _ := f.criteriaUnder(context.Background())
	return c
}

// criteriaUnder is Criteria for a computation under ctx: the parse, the
// heavy part of loading a register, stops when every caller waiting for it
// has given up, and is started again by the next one.
func (f *File) criteriaUnder(ctx context.Context) (*pi.Criteria, error) {
	f.criteriaMu.Lock()
	if f.criteria == nil {
		f.criteria = newPromise(f.busy, func(ctx context.Context) (*pi.Criteria, error) {
			if d := f.doc; d != nil && d.base != nil {
				// The edit is known: the parser need not compare the
				// texts to find it, when it parsed the one before last.
				return d.parsers.criteria.ParseEdited(ctx, f.Text, d.base.Source(), d.kept)
			}
			if f.doc != nil {
				return f.doc.parsers.criteria.ParseContext(ctx, f.Text)
			}
			return pi.ParseCriteriaContext(ctx, f.Text)
		})
	}
	p := f.criteria
	f.criteriaMu.Unlock()
	return p.get(ctx)
}

// parsers are the incremental parsers one open document's versions share.
type parsers struct {
	criteria pi.CriteriaParser
}
