package marker

// The markers that act: a code action the editor runs, an edit the user
// makes. Each runs in a workspace of its own and records what it changed.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// actionsAt asks for the code actions of a location, sending the
// diagnostics there as context, as an editor does.
func (s *session) actionsAt(m *mark) (p string, actions []*protocol.CodeAction, ok bool) {
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return "", nil, false
	}
	var context []protocol.Diagnostic
	for _, d := range s.published(p) {
		if !before(rng.End, d.Range.Start) && !before(d.Range.End, rng.Start) {
			context = append(context, d)
		}
	}
	res, err := s.c.Server.CodeAction(s.r.t.Context(), &protocol.CodeActionParams{
		TextDocument: s.document(p), Range: rng, Context: protocol.CodeActionContext{Diagnostics: context},
	})
	if err != nil {
		s.errorf(m, "textDocument/codeAction: %v", err)
		return "", nil, false
	}
	for _, r := range res {
		a, ok := r.(*protocol.CodeAction)
		if !ok {
			s.errorf(m, "textDocument/codeAction returned a %T, want CodeAction", r)
			return "", nil, false
		}
		actions = append(actions, a)
	}
	return p, actions, true
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

func titles(actions []*protocol.CodeAction) string {
	var out []string
	for _, a := range actions {
		out = append(out, strconv.Quote(a.Title))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// codeaction(location, "title" [, golden])
func codeactionMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, 3) {
		return
	}
	want, ok := word(m.args[1])
	if !ok || m.args[1].kind != kindString {
		s.errorf(m, "want the action's title as a string, got %s", m.args[1])
		return
	}
	_, actions, ok := s.actionsAt(m)
	if !ok {
		return
	}
	var action *protocol.CodeAction
	for _, a := range actions {
		if a.Title == want {
			action = a
			break
		}
	}
	if action == nil {
		s.errorf(m, "no code action %q; got %s", want, titles(actions))
		return
	}
	if v, ok := m.named["kind"]; ok {
		kind, _ := word(v)
		if action.Kind == nil || string(*action.Kind) != kind {
			s.errorf(m, "code action %q has kind %v, want %s", want, action.Kind, kind)
		}
	}
	if len(m.args) < 3 {
		return // offered: that is all this marker says
	}
	g := s.goldenFor(m, m.args[2])
	if g == nil {
		return
	}
	s.perform(m, g, func(w *effects) {
		if action.Edit == nil && len(action.Data) > 0 {
			// Picked, as an editor does it: the edit is resolved now.
			resolved, err := s.c.Server.CodeActionResolve(s.r.t.Context(), action)
			if err != nil {
				w.err = "codeAction/resolve: " + err.Error()
				return
			}
			action = resolved
		}
		if action.Edit != nil {
			w.actionEdit = action.Edit
			if err := s.c.ApplyEdit(*action.Edit); err != nil {
				w.err = "the editor could not apply the action's edit: " + err.Error()
				return
			}
		}
		if action.Command.Command != "" {
			raw, err := s.c.Server.ExecuteCommand(s.r.t.Context(), &protocol.ExecuteCommandParams{
				Command: action.Command.Command, Arguments: action.Command.Arguments,
			})
			if err != nil {
				w.err = action.Command.Command + ": " + err.Error()
				return
			}
			w.result = json.RawMessage(raw)
		}
	})
}

// nocodeaction(location, "title")
func nocodeactionMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, 2) {
		return
	}
	want, _ := word(m.args[1])
	_, actions, ok := s.actionsAt(m)
	if !ok {
		return
	}
	for _, a := range actions {
		if a.Title == want {
			s.errorf(m, "code action %q is offered", want)
		}
	}
}

// edit(location, "new text", golden): the user replaces the location with
// the text.
func editMarker(s *session, m *mark) {
	if !s.wantArgs(m, 3, 3) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	if m.args[1].kind != kindString {
		s.errorf(m, "want the new text as a string, got %s", m.args[1])
		return
	}
	g := s.goldenFor(m, m.args[2])
	if g == nil {
		return
	}
	s.perform(m, g, func(w *effects) {
		w.edited = p
		_, version, _ := s.c.Text(s.c.URI(p))
		s.c.Change(s.c.URI(p), version+1, lsptest.Edit{
			StartLine: rng.Start.Line, StartChar: rng.Start.Character,
			EndLine: rng.End.Line, EndChar: rng.End.Character, Text: m.args[1].str,
		})
	})
}

// effects is what an action did besides changing files.
type effects struct {
	actionEdit *protocol.WorkspaceEdit
	editLabel  string // what returned actionEdit; "codeAction edit" when empty
	result     json.RawMessage
	edited     string // the document the user edited: its text is no news
	err        string // the action failed: how
}

// perform runs an action as the editor would, then records what it did
// and compares it with the golden: @g/<path> for every file it changed
// (open documents as the editor has them, other files on disk; not the
// document the user edited), @g:diagnostics for the documents whose
// diagnostics changed (@g:watched if the file watcher's events then
// changed them again), @g:edits for the workspace edits, @g:shown for the
// documents the server showed, @g:result for the command's result,
// @g:error when the action failed, @g:messages for what the server told
// the user.
func (s *session) perform(m *mark, g *golden, act func(*effects)) {
	s.r.t.Helper()
	before := s.observe()
	var w effects
	act(&w)
	s.c.Sync()
	done := s.diagnosticsNow()
	s.reportDiskChanges(before.disk)
	s.c.Sync()
	after := s.observe()

	got := map[string]string{}
	for _, p := range unionKeys(before.files, after.files) {
		old, existed := before.files[p]
		text, exists := after.files[p]
		switch {
		case existed && exists && old == text, p == w.edited:
		case !exists:
			got["/"+s.normalize(p)] = "(deleted)\n"
		default:
			got["/"+s.normalize(p)] = s.normalize(s.lf(m, p, text))
		}
	}
	// What the server published once the action was done, and what the
	// watcher's events changed after that (nothing, usually: the server
	// re-checks what it wrote itself).
	diagnosticChanges(got, ":diagnostics", before.diags, done)
	diagnosticChanges(got, ":watched", done, after.diags)

	var edits strings.Builder
	if w.actionEdit != nil {
		label := w.editLabel
		if label == "" {
			label = "codeAction edit"
		}
		edits.WriteString(label + "\n" + s.formatEdit(*w.actionEdit))
	}
	for _, e := range s.c.Edits()[before.edits:] {
		edits.WriteString("workspace/applyEdit\n" + s.formatEdit(e))
	}
	var shown strings.Builder
	for _, d := range s.c.ShownDocuments()[before.shown:] {
		shown.WriteString(s.formatShown(d))
	}
	var messages strings.Builder
	for _, msg := range s.c.Messages()[before.messages:] {
		fmt.Fprintf(&messages, "%s: %s\n", messageTypes[msg.Type], s.normalize(msg.Message))
	}
	for key, text := range map[string]string{":edits": edits.String(), ":shown": shown.String(), ":messages": messages.String()} {
		if text != "" {
			got[key] = text
		}
	}
	if w.err != "" {
		got[":error"] = s.normalize(w.err) + "\n"
	}
	if len(w.result) > 0 && string(w.result) != "null" {
		var b bytes.Buffer
		if err := json.Indent(&b, w.result, "", "  "); err != nil {
			s.errorf(m, "the command's result is not JSON: %v", err)
		}
		got[":result"] = s.normalize(b.String()) + "\n"
	}
	s.compareGolden(m, g, got)
}

// observation is what the editor sees of the workspace at one moment.
type observation struct {
	files, disk            map[string]string // see snapshot
	diags                  map[string]string // formatted, by open document
	edits, shown, messages int               // how many the client has received
}

func (s *session) observe() observation {
	files, disk := s.snapshot()
	return observation{
		files: files, disk: disk, diags: s.diagnosticsNow(),
		edits: len(s.c.Edits()), shown: len(s.c.ShownDocuments()), messages: len(s.c.Messages()),
	}
}

// diagnosticsNow formats the current diagnostics of every open document.
func (s *session) diagnosticsNow() map[string]string {
	out := map[string]string{}
	for p := range s.open {
		out[p] = s.formatDiags(p, s.published(p))
	}
	return out
}

// diagnosticChanges records, under key, the documents whose diagnostics
// differ between two moments, with all their diagnostics at the second.
func diagnosticChanges(got map[string]string, key string, from, to map[string]string) {
	var b strings.Builder
	for _, p := range sortedKeys(to) {
		if to[p] != from[p] {
			fmt.Fprintf(&b, "%s:\n%s", p, to[p])
		}
	}
	if b.Len() > 0 {
		got[key] = b.String()
	}
}

// reportDiskChanges sends what the editor's file watcher would report:
// the files created, changed and deleted on disk since before.
func (s *session) reportDiskChanges(before map[string]string) {
	_, now := s.snapshot()
	events := map[protocol.FileChangeType][]string{}
	for _, p := range unionKeys(before, now) {
		old, existed := before[p]
		text, exists := now[p]
		switch {
		case !existed:
			events[protocol.FileChangeTypeCreated] = append(events[protocol.FileChangeTypeCreated], p)
		case !exists:
			events[protocol.FileChangeTypeDeleted] = append(events[protocol.FileChangeTypeDeleted], p)
		case old != text:
			events[protocol.FileChangeTypeChanged] = append(events[protocol.FileChangeTypeChanged], p)
		}
	}
	for _, kind := range []protocol.FileChangeType{protocol.FileChangeTypeCreated, protocol.FileChangeTypeChanged, protocol.FileChangeTypeDeleted} {
		if len(events[kind]) > 0 {
			s.c.FilesChanged(kind, events[kind]...)
		}
	}
}

// formatShown writes one window/showDocument: the file, and the selected
// text or the cursor as | in its line.
func (s *session) formatShown(d protocol.ShowDocumentParams) string {
	p := s.rel(d.URI)
	out := s.normalize(p)
	if sel := d.Selection; sel != nil {
		out += " " + formatRange(*sel)
		if text, ok := s.text(p); ok {
			mp := newMapper(text)
			start, end := mp.offset(sel.Start), mp.offset(sel.End)
			if start == end {
				line := int(sel.Start.Line)
				out += fmt.Sprintf(" %q", text[mp.lineStart(line):start]+"|"+text[start:mp.lineEnd(line)])
			} else {
				out += fmt.Sprintf(" %q", text[start:end])
			}
		}
	}
	return out + "\n"
}

var messageTypes = map[protocol.MessageType]string{
	protocol.MessageTypeError: "error", protocol.MessageTypeWarning: "warning",
	protocol.MessageTypeInfo: "info", protocol.MessageTypeLog: "log", protocol.MessageTypeDebug: "debug",
}

// lf returns a file's text with LF line ends; a file the test wrote with
// CRLF must still have CRLF everywhere.
func (s *session) lf(m *mark, p, text string) string {
	for _, c := range s.r.test.flags.crlf {
		if f := s.r.test.lookup(c); f != nil && f.path == p {
			if bare := strings.Count(text, "\n") - strings.Count(text, "\r\n"); bare > 0 {
				s.errorf(m, "%s was written with CRLF line ends, but %d lines now end in a bare LF", p, bare)
			}
			return strings.ReplaceAll(text, "\r\n", "\n")
		}
	}
	return text
}

// snapshot reads the workspace: files as the editor shows them (open
// documents from its buffers) and files on disk.
func (s *session) snapshot() (files, disk map[string]string) {
	files, disk = map[string]string{}, map[string]string{}
	err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.root, p)
		disk[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		s.r.t.Fatal(err)
	}
	for p, text := range disk {
		files[p] = text
	}
	for p := range s.open {
		if text, _, ok := s.c.Text(s.c.URI(p)); ok {
			files[p] = text
		}
	}
	return files, disk
}

func unionKeys(a, b map[string]string) []string {
	set := map[string]string{}
	for k := range a {
		set[k] = ""
	}
	for k := range b {
		set[k] = ""
	}
	return sortedKeys(set)
}

// formatEdit writes one workspace edit, a line per document change.
func (s *session) formatEdit(e protocol.WorkspaceEdit) string {
	var b strings.Builder
	annotated := func(id protocol.ChangeAnnotationIdentifier) string {
		if id == "" {
			return ""
		}
		return " [" + string(id) + "]"
	}
	for _, ch := range e.DocumentChanges {
		switch x := ch.(type) {
		case *protocol.CreateFile:
			fmt.Fprintf(&b, "  create %s%s\n", s.normalize(s.rel(x.URI)), annotated(x.AnnotationID))
		case *protocol.RenameFile:
			fmt.Fprintf(&b, "  rename %s %s\n", s.normalize(s.rel(x.OldURI)), s.normalize(s.rel(x.NewURI)))
		case *protocol.DeleteFile:
			fmt.Fprintf(&b, "  delete %s\n", s.normalize(s.rel(x.URI)))
		case *protocol.TextDocumentEdit:
			version := ""
			if v := x.TextDocument.Version; v != nil {
				version = fmt.Sprintf(" (version %d)", *v)
			}
			ann := ""
			for _, te := range x.Edits {
				if a, ok := te.(*protocol.AnnotatedTextEdit); ok {
					ann = annotated(a.AnnotationID)
				}
			}
			fmt.Fprintf(&b, "  edit %s%s: %d text edits%s\n", s.normalize(s.rel(x.TextDocument.URI)), version, len(x.Edits), ann)
		}
	}
	// Change annotations: what the editor shows before applying the edit.
	ids := make([]string, 0, len(e.ChangeAnnotations))
	for id := range e.ChangeAnnotations {
		ids = append(ids, string(id))
	}
	sort.Strings(ids)
	for _, id := range ids {
		a := e.ChangeAnnotations[protocol.ChangeAnnotationIdentifier(id)]
		confirm := ""
		if a.NeedsConfirmation != nil && *a.NeedsConfirmation {
			confirm = ", needs confirmation"
		}
		fmt.Fprintf(&b, "  annotation %s%s: %s\n", id, confirm, s.normalize(a.Label))
		if a.Description != nil && *a.Description != "" {
			fmt.Fprintf(&b, "    %s\n", s.normalize(*a.Description))
		}
	}
	var changed []string
	for u, edits := range e.Changes {
		changed = append(changed, fmt.Sprintf("  edit %s: %d text edits\n", s.normalize(s.rel(u)), len(edits)))
	}
	sort.Strings(changed)
	b.WriteString(strings.Join(changed, ""))
	return b.String()
}
