package lsp

import (
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/migrate"
)

// codeActionMigrate is the kind of the migrations to the current formats.
const codeActionMigrate = protocol.CodeActionKind(feature.KindMigrate)

// migrateAnnotation names the change annotation a migration's edit
// carries: an editor that supports annotations asks before applying it
// (needsConfirmation), showing the files and text it writes.
const migrateAnnotation protocol.ChangeAnnotationIdentifier = "charter-lsp.migrate"

// migrateActions offer the migration charter-lsp migrate does, as one
// workspace edit the editor previews: a pi v3 charter (in charter.md or
// criteria.md) or a file-interface .charters/<id>/charter.md gets a new
// .charters/<id>/ folder in the current grammar (migrate.Action); an rp1
// charter of the scratch-pad era is rewritten in rp1's skeleton format
// (rp1.MigrateAction).
//
// Every file written lies in a workspace folder. A client that cannot
// create files is offered no folder migration (charter-lsp migrate does
// it from a shell); one without change annotations applies the edit as
// soon as the action is chosen, without a preview.
func (s *Server) migrateActions(d *doc) []*protocol.CodeAction {
	if !s.InWorkspace(d.Path) {
		return nil
	}
	now := time.Now()
	opts := migrate.Options{Now: now, FS: d.snap.FS()}
	var plan *migrate.Plan
	var err error
	switch d.Kind {
	case analysis.KindRP1Charter:
		if a := rp1.MigrateAction(d.RP1(), now); a != nil {
			return s.toMigrateActions(d, *a)
		}
		return nil
	case analysis.KindChartersCharter:
		v := d.chartersView()
		if v == nil {
			return nil
		}
		plan, err = migrate.FromCharters(v.Dir, opts)
	case analysis.KindPiCharter, analysis.KindCriteria:
		view := d.piView()
		if view == nil {
			return nil
		}
		plan, err = migrate.FromV3(view.Dir, opts)
	default:
		return nil
	}
	if err != nil {
		d.log.Debug("no migration", zap.String("path", d.Path), zap.Error(err))
		return nil
	}
	return s.toMigrateActions(d, migrate.Action(plan))
}

// toMigrateActions converts a migration: its new files (CreateFile, then
// their text) or its edit of d, annotated for confirmation when the client
// takes annotations.
func (s *Server) toMigrateActions(d *doc, a feature.Action) []*protocol.CodeAction {
	annotated := s.changeAnnotations()
	if a.Fix != nil {
		out := s.toProtocolActions(d, []feature.Action{a})
		if len(out) == 1 && annotated && len(out[0].Edit.DocumentChanges) == 1 {
			if tde, ok := out[0].Edit.DocumentChanges[0].(*protocol.TextDocumentEdit); ok && len(a.Fix.Edits) == 1 {
				e := a.Fix.Edits[0]
				tde.Edits = []protocol.TextDocumentEditElement{annotatedEdit(toProtocolRange(d.Index().Range(e.Span)), e.NewText, true)}
				out[0].Edit.ChangeAnnotations = annotation(a.Confirm)
			}
		}
		return out
	}
	docChanges, create := s.workspaceEditCaps()
	if !docChanges || !create {
		return nil
	}
	var changes []protocol.DocumentChange
	for _, f := range a.Create {
		if !s.InWorkspace(f.Path) || d.snap.File(f.Path).Exists() {
			d.log.Warn("migration refused: the new file is outside the workspace or exists", zap.String("path", f.Path))
			return nil
		}
		u := uri.File(f.Path)
		no := false
		cf := &protocol.CreateFile{Kind: "create", URI: u, Options: &protocol.CreateFileOptions{Overwrite: &no, IgnoreIfExists: &no}}
		if annotated {
			cf.AnnotationID = migrateAnnotation
		}
		changes = append(changes, cf)
		if len(f.Content) > 0 {
			changes = append(changes, &protocol.TextDocumentEdit{
				TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}},
				Edits:        []protocol.TextDocumentEditElement{annotatedEdit(protocol.Range{}, string(f.Content), annotated)},
			})
		}
	}
	edit := &protocol.WorkspaceEdit{DocumentChanges: changes}
	if annotated {
		edit.ChangeAnnotations = annotation(a.Confirm)
	}
	return []*protocol.CodeAction{{Title: a.Title, Kind: actionKind(protocol.CodeActionKind(a.Kind)), Edit: edit}}
}

// changeAnnotations: does the client take change annotations (and so
// show a migration before applying it)?
func (s *Server) changeAnnotations() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.caps.all.Workspace
	return w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.ChangeAnnotationSupport != nil
}

// annotation is the migration's change annotation: confirm before
// applying, with what the migration does as its description.
func annotation(c *feature.Confirm) map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation {
	yes := true
	desc := strings.Join(c.Notes, "; ")
	return map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation{
		migrateAnnotation: {Label: c.Label, NeedsConfirmation: &yes, Description: &desc},
	}
}

// annotatedEdit is a text edit, carrying the migration's annotation when
// the client takes annotations.
func annotatedEdit(rng protocol.Range, text string, annotated bool) protocol.TextDocumentEditElement {
	te := protocol.TextEdit{Range: rng, NewText: text}
	if annotated {
		return &protocol.AnnotatedTextEdit{TextEdit: te, AnnotationID: migrateAnnotation}
	}
	return &te
}
