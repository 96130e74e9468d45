package lsp

import (
	"context"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// workspaceRoots reads the workspace folders of initialize, falling back to
// the deprecated rootUri and rootPath.
func workspaceRoots(params *protocol.InitializeParams) []string {
	var roots []string
	if folders, ok := params.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			if p, err := filePath(f.URI); err == nil {
				roots = append(roots, p)
			}
		}
	}
	if len(roots) == 0 && params.RootURI != nil && !params.RootURI.IsZero() {
		if p, err := filePath(*params.RootURI); err == nil {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 {
		if p, ok := params.RootPath.Get(); ok && p != "" {
			roots = append(roots, filepath.Clean(p))
		}
	}
	return roots
}

// DidChangeWorkspaceFolders keeps the folder list current: it bounds every
// write (InWorkspace) and locates the project configuration file.
func (s *Server) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	removed := map[string]bool{}
	for _, f := range params.Event.Removed {
		if p, err := filePath(f.URI); err == nil {
			removed[p] = true
		}
	}
	var roots []string
	for _, r := range s.Roots() {
		if !removed[r] {
			roots = append(roots, r)
		}
	}
	for _, f := range params.Event.Added {
		if p, err := filePath(f.URI); err == nil {
			roots = append(roots, p)
		}
	}
	s.log.Info("workspace folders changed", zap.Strings("roots", roots))
	s.diags.schedule(s.update(workspace.Change{Roots: &roots}), "")
	return nil
}

// Roots returns the workspace folders as OS paths.
func (s *Server) Roots() []string { return s.ws.Snapshot().Roots() }

// InWorkspace reports whether path lies inside one of the workspace
// folders once symbolic links are resolved. Every edit or file the server
// writes goes through it, so a charter cannot make the server write through
// a link (or a "../" path) to somewhere else.
func (s *Server) InWorkspace(path string) bool {
	return InsideFolders(path, s.Roots())
}

// InWorkspaceURI is InWorkspace for a document URI; non-file URIs are outside.
func (s *Server) InWorkspaceURI(u uri.URI) bool {
	p, err := filePath(u)
	return err == nil && s.InWorkspace(p)
}

// InsideFolders reports whether path is inside (or is) one of folders, after
// resolving symbolic links in both (vfs.Within, the one containment rule).
// A path that does not exist yet (a file about to be created) is judged by
// its nearest existing ancestor.
func InsideFolders(path string, folders []string) bool {
	return vfs.WithinAny(path, folders)
}
