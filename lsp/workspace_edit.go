package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/interview"
)

// codeRequestFailed is LSP's RequestFailed: the request was valid but the
// server could not carry it out.
const codeRequestFailed jsonrpc2.Code = -32803

// editTarget is the text an edit is computed against: the open document's
// version, or the file on disk (Version nil) when the editor has not opened
// it, or nothing when the file does not exist yet.
type editTarget struct {
	URI     uri.URI
	Path    string
	Text    []byte
	Exists  bool
	Version *int32 // nil: not open, the disk is the truth
	Kind    analysis.Kind
	// Config is the file's own configuration, from the snapshot the text
	// was read from.
	Config analysis.Config
}

// target finds the text to edit at u. It refuses a file outside the
// workspace folders (symbolic links resolved), a file that is not an rp1
// charter (a forged argument naming .git/hooks/pre-commit or a source
// file), one over the size limit, and, when want is set, an open document
// whose version is no longer the one the action was computed for.
func (s *Server) target(ctx context.Context, u uri.URI, want *int32) (editTarget, error) {
	path, err := filePath(u)
	if err != nil {
		return editTarget{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	if !s.InWorkspace(path) {
		return editTarget{}, s.refuse(ctx, "charter-lsp will not edit %s: it is outside the workspace folders", path)
	}
	// Judge the file the edit would land in: a charter.md that is a link
	// to .git/hooks/pre-commit is a hook, not a charter.
	real, _ := vfs.Resolve(path)
	if inGitDir(path) || inGitDir(real) {
		return editTarget{}, s.refuse(ctx, "charter-lsp will not edit %s: it is inside a .git folder", path)
	}
	var t editTarget
	snap := s.ws.Snapshot()
	f := snap.File(path)
	switch {
	case f.TooLarge():
		return editTarget{}, s.refuse(ctx, "charter-lsp will not edit %s: it is over the %d MB analysis limit", path, analysis.MaxFileSize>>20)
	case f.Open():
		if want != nil && *want != f.Version {
			return editTarget{}, jsonrpc2.Errorf(protocol.CodeContentModified,
				"%s changed since the action was offered (version %d, now %d): ask again", path, *want, f.Version)
		}
		v := f.Version
		t = editTarget{URI: u, Path: path, Text: f.Text, Exists: true, Version: &v, Kind: f.Kind()}
	case errors.Is(f.Err, fs.ErrNotExist):
		t = editTarget{URI: u, Path: path, Kind: f.Kind()}
	case f.Err != nil:
		return editTarget{}, jsonrpc2.Errorf(codeRequestFailed, "reading %s: %v", path, f.Err)
	default:
		t = editTarget{URI: u, Path: path, Text: f.Text, Exists: true, Kind: f.Kind()}
	}
	if kind := analysis.Classify(real, t.Text); t.Kind != kind && real != path {
		t.Kind = kind // what the link leads to decides
	}
	if t.Kind != analysis.KindRP1Charter && t.Kind != analysis.KindOtherCharter {
		return editTarget{}, s.refuse(ctx, "charter-lsp will not edit %s: the interview only edits an rp1 charter (charter.md)", path)
	}
	t.Config, _ = snap.Config(path)
	return t, nil
}

// inGitDir reports whether path has a .git folder among its parents.
func inGitDir(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if isDotGit(part) {
			return true
		}
	}
	return false
}

// isDotGit reports whether a folder name is .git as a file system may
// take it (git's own rule): in any case (macOS and Windows fold case), with
// the code points HFS+ ignores (.g\u200cit), with the trailing dots and
// spaces Windows drops (.git.), or as NTFS's short name GIT~1.
func isDotGit(name string) bool {
	name = strings.TrimRight(strings.Map(func(r rune) rune {
		switch {
		case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
			return -1
		}
		return r
	}, name), ". ")
	return strings.EqualFold(name, ".git") || strings.EqualFold(name, "git~1")
}

// refuse tells the user why an action was refused (window/showMessage) and
// returns the same message as a JSON-RPC error for the request.
func (s *Server) refuse(ctx context.Context, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	s.log.Warn("refused", zap.String("reason", msg))
	if s.client != nil {
		if err := s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg}); err != nil {
			s.log.Debug("showMessage", zap.Error(err))
		}
	}
	return jsonrpc2.NewError(codeRequestFailed, msg)
}

// textEdits converts interview edits against ix's text to protocol edits.
func textEdits(ix *source.Index, edits []interview.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: toProtocolRange(ix.Range(e.Span)), NewText: e.NewText})
	}
	return out
}

// workspaceEdit builds the edit of t's document: versioned documentChanges
// (with a CreateFile first when the file does not exist) when the client
// supports them, else plain changes. Edits always pass InWorkspace first
// (target checks it).
func (s *Server) workspaceEdit(t editTarget, edits []protocol.TextEdit) (*protocol.WorkspaceEdit, error) {
	docChanges, create := s.workspaceEditCaps()
	if !t.Exists && !create {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s does not exist and the editor cannot create files: create it first", t.Path)
	}
	if !docChanges {
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{t.URI: edits}}, nil
	}
	elems := make([]protocol.TextDocumentEditElement, 0, len(edits))
	for i := range edits {
		elems = append(elems, &edits[i])
	}
	var changes []protocol.DocumentChange
	if !t.Exists {
		changes = append(changes, &protocol.CreateFile{Kind: "create", URI: t.URI})
	}
	changes = append(changes, &protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: t.URI},
			Version:                t.Version,
		},
		Edits: elems,
	})
	return &protocol.WorkspaceEdit{DocumentChanges: changes}, nil
}

// workspaceEditCaps: does the client take versioned documentChanges, and
// can it create files?
func (s *Server) workspaceEditCaps() (docChanges, create bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.caps.all.Workspace
	if w == nil || w.WorkspaceEdit == nil {
		return false, false
	}
	docChanges = isTrue(w.WorkspaceEdit.DocumentChanges)
	for _, op := range w.WorkspaceEdit.ResourceOperations {
		if op == protocol.ResourceOperationKindCreate {
			create = docChanges
		}
	}
	return docChanges, create
}

// applyEdit asks the client to apply edit (workspace/applyEdit) and fails
// when the client cannot or did not.
func (s *Server) applyEdit(ctx context.Context, label string, edit *protocol.WorkspaceEdit) error {
	s.mu.Lock()
	can := s.caps.applyEdit
	s.mu.Unlock()
	if !can || s.client == nil {
		return jsonrpc2.Errorf(codeRequestFailed, "%s: the editor does not support workspace/applyEdit", label)
	}
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit})
	if err != nil {
		return jsonrpc2.Errorf(codeRequestFailed, "%s: workspace/applyEdit: %v", label, err)
	}
	if !res.Applied {
		why := "the editor did not apply it"
		if res.FailureReason != nil && *res.FailureReason != "" {
			why = *res.FailureReason
		}
		return jsonrpc2.Errorf(codeRequestFailed, "%s: %s", label, why)
	}
	return nil
}

// showAt moves the editor's cursor to pos in u (window/showDocument), when
// the client supports it. Failure is not an error: the edit is already made.
func (s *Server) showAt(ctx context.Context, u uri.URI, pos protocol.Position) {
	s.mu.Lock()
	can := s.caps.showDocument
	s.mu.Unlock()
	if !can || s.client == nil {
		return
	}
	yes := true
	sel := protocol.Range{Start: pos, End: pos}
	if _, err := s.client.ShowDocument(ctx, &protocol.ShowDocumentParams{URI: u, TakeFocus: &yes, Selection: &sel}); err != nil {
		s.log.Debug("showDocument", zap.Error(err))
	}
}
