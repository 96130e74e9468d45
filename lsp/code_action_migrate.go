package lsp

import (
	"fmt"
	"path/filepath"
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
// workspace edit the editor previews:
//   - a pi v3 charter (.pi/charters/<id>/, in charter.md or criteria.md)
//     or a file-interface .charters/<id>/charter.md: a new .charters/<id>/
//     folder in the current grammar (CreateFile for charter.md, state.json
//     and events.jsonl, then their text); the old folder is left alone;
//   - an rp1 charter of the scratch-pad era: the same file rewritten in
//     rp1's skeleton format (a skeleton charter with a scratch pad left in
//     it gets this from its legacy-scratch-pad quick fix).
//
// Every file written lies in a workspace folder. A client that cannot
// create files is offered no folder migration (charter-lsp migrate does
// it from a shell); one without change annotations applies the edit as
// soon as the action is chosen, without a preview (the old files are
// never changed by a folder migration, so undoing it is deleting the new
// folder; an rp1 rewrite is undone like any edit).
func (s *Server) migrateActions(d *doc) []*protocol.CodeAction {
	if !s.InWorkspace(d.Path) {
		return nil
	}
	now := time.Now()
	switch d.Kind {
	case analysis.KindRP1Charter:
		if d.RP1().Format == rp1.FormatScratchPad {
			return s.rp1MigrateAction(d, now)
		}
	case analysis.KindChartersCharter:
		v := d.chartersView()
		if v == nil || v.Charter == nil || !v.Charter.Generation.FileInterface() {
			return nil
		}
		plan, err := migrate.FromCharters(v.Dir, migrate.Options{Now: now, Taken: d.taken(filepath.Dir(v.Path))})
		return s.folderMigrateAction(d, plan, err)
	case analysis.KindPiCharter, analysis.KindCriteria:
		view := d.piView()
		if view == nil || view.Dir.Project == "" {
			return nil
		}
		root := filepath.Join(view.Dir.Project, ".charters")
		plan, err := migrate.FromV3(view.Dir, migrate.Options{Now: now, Taken: d.taken(root)})
		return s.folderMigrateAction(d, plan, err)
	}
	return nil
}

// taken reports the names already in folder dir (a .charters folder).
func (d *doc) taken(dir string) func(string) bool {
	names := map[string]bool{}
	if entries, err := d.snap.FS().ReadDir(dir); err == nil {
		for _, e := range entries {
			names[e.Name()] = true
		}
	}
	return func(name string) bool { return names[name] }
}

// folderMigrateAction is the edit that creates the plan's folder.
func (s *Server) folderMigrateAction(d *doc, plan *migrate.Plan, err error) []*protocol.CodeAction {
	if err != nil {
		d.log.Debug("no migration", zap.String("path", d.Path), zap.Error(err))
		return nil
	}
	docChanges, create := s.workspaceEditCaps()
	if !docChanges || !create {
		return nil
	}
	annotated := s.changeAnnotations()
	var changes []protocol.DocumentChange
	for _, f := range plan.Files {
		p := filepath.Join(plan.Dir(), f.Name)
		if !s.InWorkspace(p) || d.snap.File(p).Exists() {
			d.log.Warn("migration refused: the new file is outside the workspace or exists", zap.String("path", p))
			return nil
		}
		u := uri.File(p)
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
	rel := filepath.ToSlash(filepath.Join(".charters", plan.ID))
	if annotated {
		edit.ChangeAnnotations = annotation(fmt.Sprintf("Create %s/ (%s → the current grammar)", rel, plan.Kind), plan.Notes)
	}
	title := "Migrate to the current format: a new .charters/ charter (the old one stays)"
	return []*protocol.CodeAction{{Title: title, Kind: actionKind(codeActionMigrate), Edit: edit}}
}

// rp1MigrateAction rewrites a scratch-pad era rp1 charter in place.
func (s *Server) rp1MigrateAction(d *doc, now time.Time) []*protocol.CodeAction {
	m, err := rp1.Migrate(d.Text, rp1.MigrateOptions{Now: now})
	if err != nil || !m.Changed() {
		return nil
	}
	e := m.Edit()
	rng := toProtocolRange(d.Index().Range(e.Span))
	annotated := s.changeAnnotations()
	v := d.Version
	edit, err := s.workspaceEdit(editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &v, Kind: d.Kind},
		[]protocol.TextEdit{{Range: rng, NewText: e.NewText}})
	if err != nil {
		return nil
	}
	if annotated && len(edit.DocumentChanges) == 1 {
		if tde, ok := edit.DocumentChanges[0].(*protocol.TextDocumentEdit); ok {
			tde.Edits = []protocol.TextDocumentEditElement{annotatedEdit(rng, e.NewText, true)}
			edit.ChangeAnnotations = annotation("Rewrite the charter in rp1's skeleton format", m.Notes())
		}
	}
	return []*protocol.CodeAction{{Title: "Migrate to rp1's skeleton charter (answers into their regions)", Kind: actionKind(codeActionMigrate), Edit: edit}}
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
func annotation(label string, notes []string) map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation {
	yes := true
	desc := strings.Join(notes, "; ")
	return map[protocol.ChangeAnnotationIdentifier]protocol.ChangeAnnotation{
		migrateAnnotation: {Label: label, NeedsConfirmation: &yes, Description: &desc},
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
