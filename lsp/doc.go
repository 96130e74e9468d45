package lsp

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// doc is an open document as one request sees it: its version in the
// request's snapshot, and that snapshot. Every feature reads only these.
type doc struct {
	*workspace.File
	URI  uri.URI
	Kind analysis.Kind
	snap *workspace.Snapshot
	ctx  context.Context // the request's: cancelled, the work stops
	log  *zap.Logger
}

// docOf returns the open document at u in the current snapshot; ok is
// false for a document that is not open or is over the size limit (no
// feature looks at those).
func (s *Server) docOf(ctx context.Context, u uri.URI) (*doc, bool) {
	snap, f, ok := s.openFileOf(u)
	if !ok {
		return nil, false
	}
	return &doc{File: f, URI: u, Kind: f.Kind(), snap: snap, ctx: ctx, log: s.log}, true
}

// config is the configuration of the document's own folder, in the
// request's snapshot.
func (d *doc) config() analysis.Config {
	cfg, _ := d.snap.Config(d.Path)
	return cfg
}

// piDir is the pi charter directory holding the document, or "".
func (d *doc) piDir() string { return analysis.PiCharterDir(d.Path) }

// piView is the view of the document's pi charter, or nil when it is in
// none (or the request was cancelled).
func (d *doc) piView() *pi.View {
	dir := d.piDir()
	if dir == "" {
		return nil
	}
	v, err := d.snap.PiView(d.ctx, dir)
	if err != nil {
		if d.ctx.Err() == nil {
			d.log.Warn("loading the charter", zap.String("dir", dir), zap.Error(err))
		}
		return nil
	}
	return v
}

// chartersView is the view of the .charters/<id> folder holding the
// document, or nil when the request was cancelled: its charter.md is the
// document's text in this snapshot, read in the generation the folder's
// evidence decides (charterfile.Decide).
func (d *doc) chartersView() *charterfile.View {
	v, err := d.snap.ChartersView(d.ctx, filepath.Dir(d.Path))
	if err != nil {
		return nil
	}
	return v
}

// skeleton is an rp1 charter document read as rp1's skeleton charter, or
// nil when it is of the scratch-pad generation.
func (d *doc) skeleton() *rp1.Skeleton { return skeletonOf(d.File) }

// skeletonOf is f read as rp1's skeleton charter: an rp1 charter whose
// generation (rp1.Era, decided once by the parser) is the skeleton; nil
// otherwise. Every interview path asks this one question, so none writes
// a scratch pad into a skeleton charter.
func skeletonOf(f *workspace.File) *rp1.Skeleton {
	if f.Kind() != analysis.KindRP1Charter || f.RP1().Format != rp1.FormatSkeleton {
		return nil
	}
	return f.RP1().Skeleton
}

// offset is the byte offset of a protocol position in the document.
func (d *doc) offset(p protocol.Position) int { return d.Index().Offset(fromProtocolPosition(p)) }

// target says which paths a location may lead to: files that exist (or are
// over the size limit) inside the workspace, symbolic links resolved, so
// that a link does not lead the editor to a file from elsewhere.
func (d *doc) target(s *Server) func(string) bool {
	return func(p string) bool {
		if !s.InWorkspace(p) {
			return false
		}
		f := d.snap.File(p)
		return f.Exists() || f.TooLarge()
	}
}

// inCharter is target for the files of the pi charter directory dir only:
// an evidence path never leads out of its charter.
func (d *doc) inCharter(s *Server, dir string) func(string) bool {
	inWorkspace := d.target(s)
	return func(p string) bool { return analysis.PiCharterDir(p) == dir && inWorkspace(p) }
}

// regularFile says which paths a link written in a .charters charter may
// lead to: regular files inside the workspace (symbolic links resolved),
// by a stat, not a read.
func (d *doc) regularFile(s *Server) func(string) bool {
	return func(p string) bool {
		if !s.InWorkspace(p) {
			return false
		}
		fi, err := d.snap.FS().Stat(p)
		return err == nil && fi.Mode().IsRegular()
	}
}
