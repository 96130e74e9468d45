package lsp

import (
	"sync"

	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/workspace"
)

// docTable maps the URIs the client uses for open documents to OS paths
// and back (the workspace knows paths only).
type docTable struct {
	mu     sync.Mutex
	byURI  map[uri.URI]string
	byPath map[string]uri.URI
}

func newDocTable() *docTable {
	return &docTable{byURI: map[uri.URI]string{}, byPath: map[string]uri.URI{}}
}

func (t *docTable) open(u uri.URI, path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byURI[u], t.byPath[path] = path, u
}

func (t *docTable) close(u uri.URI) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.byURI[u]
	if ok {
		delete(t.byURI, u)
		delete(t.byPath, p)
	}
	return p, ok
}

// uri is the URI of the document at path: the one the client opened it
// with, else a file: URI.
func (t *docTable) uri(path string) uri.URI {
	t.mu.Lock()
	defer t.mu.Unlock()
	if u, ok := t.byPath[path]; ok {
		return u
	}
	return uri.File(path)
}

// fileOf returns the current snapshot and its version of the document at
// u (open or not): the first line of every feature handler.
func (s *Server) fileOf(u uri.URI) (*workspace.Snapshot, *workspace.File, error) {
	path, err := filePath(u)
	if err != nil {
		return nil, nil, err
	}
	snap := s.ws.Snapshot()
	return snap, snap.File(path), nil
}

// openFileOf is fileOf for documents the editor has open: features answer
// only for those, and never for a file over the size limit.
func (s *Server) openFileOf(u uri.URI) (*workspace.Snapshot, *workspace.File, bool) {
	snap, f, err := s.fileOf(u)
	if err != nil || !f.Open() || f.TooLarge() {
		return nil, nil, false
	}
	return snap, f, true
}

// filePathOr is filePath, or "" for a URI that is not a file.
func filePathOr(u uri.URI) string {
	p, _ := filePath(u)
	return p
}
