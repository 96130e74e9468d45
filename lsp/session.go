package lsp

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"sync"

	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
)

// session holds the open documents. Handlers run concurrently (see
// handler.go), so every access goes through mu; documents themselves are
// immutable versions and can be used after the lock is released.
type session struct {
	mu   sync.Mutex
	docs map[uri.URI]*Document
	// byPath finds an open document from an OS path, for the overlay FS.
	byPath map[string]*Document
}

func newSession() *session {
	return &session{docs: map[uri.URI]*Document{}, byPath: map[string]*Document{}}
}

// errStaleVersion marks a change whose version does not increase.
var errStaleVersion = errors.New("stale version")

// open records a newly opened document (a re-open replaces the old one).
func (s *session) open(u uri.URI, languageID string, version int32, text []byte) (*Document, error) {
	path, err := filePath(u)
	if err != nil {
		return nil, err
	}
	d := newDocument(u, path, languageID, version, text, nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.docs[u]; old != nil {
		delete(s.byPath, old.Path)
	}
	s.docs[u] = d
	s.byPath[path] = d
	return d, nil
}

// featureDoc is the open document u for a feature request (hover,
// symbols, folding, code lens, completion, definition, code actions): nil
// when it is not open or over the size limit, so every feature refuses an
// over-limit document before doing any work on it.
func (s *Server) featureDoc(u uri.URI) *Document {
	d := s.sess.get(u)
	if d == nil || d.TooLarge() {
		return nil
	}
	return d
}

// change applies changes to the open document u, refusing versions that do
// not increase (duplicate or reordered notifications).
func (s *session) change(u uri.URI, version int32, changes []Change) (*Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.docs[u]
	if old == nil {
		return nil, fmt.Errorf("%s is not open", u)
	}
	if version <= old.Version {
		return nil, fmt.Errorf("%w: %d after %d", errStaleVersion, version, old.Version)
	}
	d, err := old.applyChanges(version, changes)
	if err != nil {
		return nil, err
	}
	s.docs[u] = d
	s.byPath[d.Path] = d
	return d, nil
}

// close forgets u and returns its last version.
func (s *session) close(u uri.URI) *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d != nil {
		delete(s.docs, u)
		delete(s.byPath, d.Path)
	}
	return d
}

// get returns the current version of u, or nil.
func (s *session) get(u uri.URI) *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[u]
}

// getPath returns the open document at an OS path, or nil.
func (s *session) getPath(path string) *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byPath[filepath.Clean(path)]
}

// all returns the open documents, sorted by URI for a stable order.
func (s *session) all() []*Document {
	s.mu.Lock()
	out := make([]*Document, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, d)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

// charterDirDocs returns the open documents of the pi-charter directory dir.
func (s *session) charterDirDocs(dir string) []*Document {
	var out []*Document
	for _, d := range s.all() {
		if analysis.PiCharterDir(d.Path) == dir {
			out = append(out, d)
		}
	}
	return out
}

// filePath turns a document URI into an OS path. Only file: URIs are
// served: an untitled buffer has no place in a charter directory.
func filePath(u uri.URI) (string, error) {
	if !u.IsFile() {
		return "", fmt.Errorf("%s: only file: URIs are supported", u)
	}
	p := u.FsPath()
	if p == "" {
		return "", fmt.Errorf("%s: no file path", u)
	}
	return filepath.Clean(p), nil
}
