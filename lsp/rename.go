package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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
		return nil, jsonrpc2.NewError(codeRequestFailed, "No charter id here: rename works on a VAL id, a milestone id or a C<n> criterion id")
	}
	return &protocol.PrepareRenamePlaceholder{Range: toProtocolRange(d.Index().Range(use.span)), Placeholder: use.target.ID}, nil
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
		return nil, jsonrpc2.NewError(codeRequestFailed, "No charter id here: rename works on a VAL id, a milestone id or a C<n> criterion id")
	}
	if err := ids.CheckName(use.target, params.NewName, use.blocked, use.taken); err != nil {
		var refused *ids.Refused
		if errors.As(err, &refused) {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, refused.Reason)
		}
		return nil, err
	}
	edits := ids.Edits(use.refs, params.NewName)
	for _, e := range edits {
		if err := s.checkEditable(e.Path); err != nil {
			return nil, s.refuse(ctx, "Not renaming %s: %v", use.target.ID, err)
		}
	}
	annotate, docChanges := s.renameCaps()
	var history []ids.Edit
	if !annotate {
		kept := edits[:0]
		for _, e := range edits {
			if e.History {
				history = append(history, e)
			} else {
				kept = append(kept, e)
			}
		}
		edits = kept
		if len(history) > 0 {
			s.show(ctx, protocol.MessageTypeWarning, fmt.Sprintf(
				"Renaming %s to %s leaves its recorded evidence alone (%d places in %s): your editor cannot ask before changing recorded history, so the evidence keeps the id %s.",
				use.target.ID, params.NewName, len(history), filesOf(history), use.target.ID))
		}
	}
	s.log.Info("rename", zap.String("id", use.target.ID), zap.String("to", params.NewName), zap.Int("edits", len(edits)), zap.Int("historyLeft", len(history)))
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
func (s *Server) renameEdit(d *doc, use *idUse, newID string, edits []ids.Edit, annotate, docChanges bool) *protocol.WorkspaceEdit {
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
		desc := fmt.Sprintf("%s is named in %d place%s of the recorded evidence of %s (evidence runs, their narratives, the journal). "+
			"Confirm to rename it there too, so its history follows it to %s; leave them out to keep the history as it was recorded.",
			use.target.ID, histories, plural(histories), relList(use.charters), newID)
		out.ChangeAnnotations = map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation{
			annotationHistory: {Label: "Rename in recorded evidence (history)", NeedsConfirmation: &yes, Description: &desc},
		}
	}
	return out
}

// filesOf names the files of edits, by base name, once each.
func filesOf(edits []ids.Edit) string {
	seen := map[string]bool{}
	out := ""
	n := 0
	for _, e := range edits {
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		if n < 3 {
			if n > 0 {
				out += ", "
			}
			out += filepath.Base(filepath.Dir(e.Path)) + "/" + filepath.Base(e.Path)
		}
		n++
	}
	if n > 3 {
		out += fmt.Sprintf(" and %d more files", n-3)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
