package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
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
//
// A migration writes the whole new charter (a folder migration renders
// and checks it: hundreds of milliseconds and megabytes for a 5,000-VAL
// register; an rp1 rewrite parses its new text), and editors ask for code
// actions on every cursor move. So when the client resolves an action's
// edit lazily, it is offered on its preconditions alone (migrate.CheckV3,
// migrate.CheckCharters, rp1.Migratable) with the document's version as
// its data, and made when the user picks it (CodeActionResolve).
func (s *Server) migrateActions(d *doc) []*protocol.CodeAction {
	if !s.InWorkspace(d.Path) {
		return nil
	}
	if d.Kind == analysis.KindRP1Charter {
		if !rp1.Migratable(d.RP1()) {
			return nil
		}
		if s.resolvesEdit() {
			return s.lazyMigration(d, rp1.MigrateTitle, migrateRP1DataAction)
		}
		a, err := d.migration(migrateRP1DataAction)
		if err != nil {
			return nil
		}
		return s.toMigrateActions(d, a)
	}
	root, err := d.migrateCheck()
	if err != nil {
		d.log.Debug("no migration", zap.String("path", d.Path), zap.Error(err))
		return nil
	}
	if docChanges, create := s.workspaceEditCaps(); !docChanges || !create || !s.InWorkspace(root) {
		return nil
	}
	if s.resolvesEdit() {
		return s.lazyMigration(d, migrate.ActionTitle, migrateDataAction)
	}
	a, err := d.migration(migrateDataAction)
	if err != nil {
		d.log.Debug("no migration", zap.String("path", d.Path), zap.Error(err))
		return nil
	}
	return s.toMigrateActions(d, a)
}

// lazyMigration is the migration named action, offered with data instead
// of its edit: the document and its version.
func (s *Server) lazyMigration(d *doc, title, action string) []*protocol.CodeAction {
	data, err := json.Marshal(migrateData{URI: d.URI, Version: d.Version, Action: action})
	if err != nil {
		return nil
	}
	return []*protocol.CodeAction{{Title: title, Kind: actionKind(codeActionMigrate), Data: data}}
}

// migration makes the migration named action of d: an rp1 charter's
// rewrite (rp1.MigrateAction) or its charter folder's plan (migratePlan).
func (d *doc) migration(action string) (feature.Action, error) {
	if action != migrateRP1DataAction {
		return d.migratePlan()
	}
	if d.Kind != analysis.KindRP1Charter {
		return feature.Action{}, fmt.Errorf("%s is not an rp1 charter", d.Path)
	}
	if a := rp1.MigrateAction(d.RP1(), time.Now()); a != nil {
		return *a, nil
	}
	return feature.Action{}, fmt.Errorf("nothing to migrate: %s is already in rp1's skeleton format", d.Path)
}

// migrateCheck is migrate's check of d's charter folder before any plan:
// the .charters folder the new charter would go in, or why there is none.
func (d *doc) migrateCheck() (root string, err error) {
	switch d.Kind {
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			return migrate.CheckCharters(v.Dir)
		}
	case analysis.KindPiCharter, analysis.KindCriteria:
		if v := d.piView(); v != nil {
			return migrate.CheckV3(v.Dir)
		}
	default:
		return "", errNoFolderMigration
	}
	return "", d.unread()
}

var errNoFolderMigration = errors.New("not a charter folder migrate reads")

// unread is why d's charter folder has no view: the request was cancelled,
// or the folder could not be loaded (logged by the view).
func (d *doc) unread() error {
	if err := d.ctx.Err(); err != nil {
		return err
	}
	return fmt.Errorf("%s: its charter folder could not be read", d.Path)
}

// migratePlan plans the migration of d's charter folder (migrate.FromV3,
// migrate.FromCharters) and makes it an action.
func (d *doc) migratePlan() (feature.Action, error) {
	opts := migrate.Options{Now: time.Now(), FS: d.snap.FS()}
	var plan *migrate.Plan
	var err error
	switch d.Kind {
	case analysis.KindChartersCharter:
		v := d.chartersView()
		if v == nil {
			return feature.Action{}, d.unread()
		}
		plan, err = migrate.FromCharters(v.Dir, opts)
	case analysis.KindPiCharter, analysis.KindCriteria:
		v := d.piView()
		if v == nil {
			return feature.Action{}, d.unread()
		}
		plan, err = migrate.FromV3(v.Dir, opts)
	default:
		return feature.Action{}, errNoFolderMigration
	}
	if err != nil {
		return feature.Action{}, err
	}
	return migrate.Action(plan), nil
}

// migrateData is the data of a migration offered without its edit: the
// document and the version it was offered for, and which migration.
type migrateData struct {
	URI     uri.URI `json:"uri"`
	Version int32   `json:"version"`
	Action  string  `json:"action"`
}

// The migrations migrateData names: a charter folder's (migratePlan), an
// rp1 charter's rewrite in place (rp1.MigrateAction).
const (
	migrateDataAction    = "migrate"
	migrateRP1DataAction = "migrate-rp1"
)

// resolvesEdit: does the client resolve a code action's edit lazily
// (codeAction/resolve), keeping its data until then?
func (s *Server) resolvesEdit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.caps.all.TextDocument
	if td == nil || td.CodeAction == nil || !isTrue(td.CodeAction.DataSupport) {
		return false
	}
	return slices.Contains(td.CodeAction.ResolveSupport.Properties, "edit")
}

// CodeActionResolve fills in the edit of a migration offered without it:
// the migration is made now, for the document as it was offered. A
// document changed since (or closed) is ContentModified, and the client
// asks for the actions again; a migration refused (a plan migrate
// refuses, an rp1 rewrite that would change nothing) is an error with the
// reason, shown to the user.
//
// VS Code resolves every action it is about to run that has no edit, a
// command action (ask the next question, run a check) too; those, and any
// data the server did not make, come back as they were: nothing to fill
// in. (Refusing them made VS Code show "Request codeAction/resolve
// failed" each time the user picked one.)
func (s *Server) CodeActionResolve(ctx context.Context, a *protocol.CodeAction) (*protocol.CodeAction, error) {
	var data migrateData
	if len(a.Data) == 0 || json.Unmarshal(a.Data, &data) != nil || (data.Action != migrateDataAction && data.Action != migrateRP1DataAction) {
		return a, nil
	}
	d, ok := s.docOf(ctx, data.URI)
	if !ok {
		return nil, jsonrpc2.Errorf(protocol.CodeContentModified, "%s is no longer open: ask for the actions again", data.URI)
	}
	if d.Version != data.Version {
		return nil, jsonrpc2.Errorf(protocol.CodeContentModified,
			"%s changed since the action was offered (version %d, now %d): ask again", d.Path, data.Version, d.Version)
	}
	if !s.InWorkspace(d.Path) {
		return nil, s.refuse(ctx, "charter-lsp will not migrate %s: it is outside the workspace folders", d.Path)
	}
	m, err := d.migration(data.Action)
	if err != nil {
		return nil, s.refuse(ctx, "%v", err)
	}
	edit, err := s.migrationEdit(d, m)
	if err != nil {
		return nil, s.refuse(ctx, "%v", err)
	}
	out := *a
	out.Edit = edit
	return &out, nil
}

// toMigrateActions converts a migration to an action with its edit
// (migrationEdit).
func (s *Server) toMigrateActions(d *doc, a feature.Action) []*protocol.CodeAction {
	edit, err := s.migrationEdit(d, a)
	if err != nil {
		d.log.Warn("no migration offered", zap.Error(err))
		return nil
	}
	return []*protocol.CodeAction{{Title: a.Title, Kind: actionKind(protocol.CodeActionKind(a.Kind)), Edit: edit}}
}

// migrationEdit is a migration's edit: its edit of d (an rp1 rewrite) or
// its new files (migrateEdit), annotated for confirmation when the client
// takes annotations.
func (s *Server) migrationEdit(d *doc, a feature.Action) (*protocol.WorkspaceEdit, error) {
	if a.Fix == nil {
		return s.migrateEdit(d, a)
	}
	edit, err := s.documentEdit(d, a.Fix.Edits)
	if err != nil {
		return nil, err
	}
	if s.changeAnnotations() && len(edit.DocumentChanges) == 1 && len(a.Fix.Edits) == 1 {
		if tde, ok := edit.DocumentChanges[0].(*protocol.TextDocumentEdit); ok {
			e := a.Fix.Edits[0]
			tde.Edits = []protocol.TextDocumentEditElement{annotatedEdit(toProtocolRange(d.Index().Range(e.Span)), e.NewText, true)}
			edit.ChangeAnnotations = annotation(a.Confirm)
		}
	}
	return edit, nil
}

// migrateEdit is the edit of a folder migration: its new files created
// (never over an existing one, never outside the workspace) and written.
func (s *Server) migrateEdit(d *doc, a feature.Action) (*protocol.WorkspaceEdit, error) {
	docChanges, create := s.workspaceEditCaps()
	if !docChanges || !create {
		return nil, errors.New("migration refused: the editor cannot create files; run charter-lsp migrate from a shell")
	}
	annotated := s.changeAnnotations()
	var changes []protocol.DocumentChange
	for _, f := range a.Create {
		if !s.InWorkspace(f.Path) || d.snap.File(f.Path).Exists() {
			return nil, fmt.Errorf("migration refused: the new file %s is outside the workspace or exists", f.Path)
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
	return edit, nil
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
