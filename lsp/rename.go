package lsp

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// annotationHistory marks the edits of recorded history (evidence runs,
// the journal): the editor asks the user before applying them.
const annotationHistory protocol.ChangeAnnotationIdentifier = "charter.history"

// PrepareRename says whether the cursor is on an id that can be renamed,
// and which: the id's range and its name as the placeholder.
func (s *Server) PrepareRename(ctx context.Context, params *protocol.PrepareRenameParams) (protocol.PrepareRenameResult, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	use, err := d.idUseAt(d.Index().Offset(fromProtocolPosition(params.Position)))
	if err != nil {
		return nil, err
	}
	if use == nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, ids.NoID)
	}
	return &protocol.PrepareRenamePlaceholder{Range: toProtocolRange(d.Index().Range(use.Span)), Placeholder: use.Target.ID}, nil
}

// Rename renames the id under the cursor everywhere it occurs (References'
// places) as one workspace edit. Recorded history — evidence runs and the
// journal — is changed only with the user's confirmation: those edits carry
// a change annotation that needs it, and an editor without change
// annotations gets the edit without them (and a message saying so). A
// name of the wrong shape, or one already in use, is refused with the
// reason, as is an edit of a file outside the workspace folders or reached
// through a symbolic link.
func (s *Server) Rename(ctx context.Context, params *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return nil, jsonrpc2.NewError(codeRequestFailed, "The document is not open (or is over the analysis size limit)")
	}
	use, err := d.idUseAt(d.Index().Offset(fromProtocolPosition(params.Position)))
	if err != nil {
		return nil, err
	}
	if use == nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, ids.NoID)
	}
	if err := use.Check(params.NewName); err != nil {
		var refused *ids.Refused
		if errors.As(err, &refused) {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, refused.Reason)
		}
		return nil, err
	}
	edits := ids.Edits(use.Refs, params.NewName)
	for _, e := range edits {
		if err := s.checkEditable(e.Path); err != nil {
			return nil, s.refuse(ctx, "Not renaming %s: %v", use.Target.ID, err)
		}
	}
	annotate, docChanges := s.renameCaps()
	var history []ids.Edit
	if !annotate {
		if edits, history = ids.SplitHistory(edits); len(history) > 0 {
			s.show(ctx, protocol.MessageTypeWarning, use.HistoryLeftNote(params.NewName, history))
		}
	}
	s.log.Info("rename", zap.String("id", use.Target.ID), zap.String("to", params.NewName), zap.Int("edits", len(edits)), zap.Int("historyLeft", len(history)))
	return s.renameEdit(d, use, params.NewName, edits, annotate, docChanges), nil
}

// checkEditable refuses a file the editor must not be asked to change:
// outside the workspace folders, or reached through a symbolic link
// (vfs.CheckDirect, against the folder that holds it).
func (s *Server) checkEditable(path string) error {
	if !s.InWorkspace(path) {
		return fmt.Errorf("%s is outside the workspace folders", path)
	}
	var last error
	for _, root := range s.Roots() {
		if !vfs.Below(root, path) {
			continue
		}
		if last = vfs.CheckDirect(root, path); last == nil {
			return nil
		}
	}
	if last == nil {
		last = fmt.Errorf("%s is outside the workspace folders", path)
	}
	return last
}

// renameCaps: can the client take change annotations (and versioned
// documentChanges, which carry them)?
func (s *Server) renameCaps() (annotate, docChanges bool) {
	docChanges, _ = s.workspaceEditCaps()
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.caps.all.Workspace
	annotate = docChanges && w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.ChangeAnnotationSupport != nil
	return annotate, docChanges
}

// renameEdit builds the workspace edit: one versioned TextDocumentEdit per
// file (an open document's version from the snapshot the edit was computed
// in), history edits annotated; plain changes for a client without
// documentChanges.
func (s *Server) renameEdit(d *doc, use *ids.Use, newID string, edits []ids.Edit, annotate, docChanges bool) *protocol.WorkspaceEdit {
	byPath := map[string][]ids.Edit{}
	var paths []string
	for _, e := range edits {
		if byPath[e.Path] == nil {
			paths = append(paths, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	sort.Strings(paths)
	if !docChanges {
		changes := map[uri.URI][]protocol.TextEdit{}
		for _, p := range paths {
			for _, e := range byPath[p] {
				changes[uri.File(p)] = append(changes[uri.File(p)], protocol.TextEdit{Range: toProtocolRange(e.Range), NewText: e.NewText})
			}
		}
		return &protocol.WorkspaceEdit{Changes: changes}
	}
	out := &protocol.WorkspaceEdit{}
	histories := 0
	for _, p := range paths {
		var elems []protocol.TextDocumentEditElement
		for _, e := range byPath[p] {
			te := protocol.TextEdit{Range: toProtocolRange(e.Range), NewText: e.NewText}
			if e.History && annotate {
				histories++
				elems = append(elems, &protocol.AnnotatedTextEdit{TextEdit: te, AnnotationID: annotationHistory})
			} else {
				elems = append(elems, &te)
			}
		}
		var version *int32
		if f := d.snap.File(p); f.Open() {
			v := f.Version
			version = &v
		}
		out.DocumentChanges = append(out.DocumentChanges, &protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(p)}, Version: version},
			Edits:        elems,
		})
	}
	if histories > 0 {
		yes := true
		desc := use.HistoryNote(histories, newID)
		out.ChangeAnnotations = map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation{
			annotationHistory: {Label: ids.HistoryLabel, NeedsConfirmation: &yes, Description: &desc},
		}
	}
	return out
}
