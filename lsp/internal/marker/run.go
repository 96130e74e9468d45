package marker

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// Options configure Run.
type Options struct {
	// Update rewrites the golden sections with what the markers got.
	Update bool
	// Binary, when set, is the path of the built charter-lsp: Run then
	// drives it over stdio, and runs only the archives flagged -binary.
	Binary string
}

// Run runs every archive (*.txt) under dir as a subtest.
func Run(t *testing.T, dir string, opts Options) {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatalf("no archives under %s", dir)
	}
	sort.Strings(names)
	ran := 0
	for _, filename := range names {
		name, _ := filepath.Rel(dir, filename)
		test, err := load(filepath.ToSlash(name), filename)
		if err != nil {
			t.Error(err)
			continue
		}
		if opts.Binary != "" && !test.flags.binary {
			continue
		}
		ran++
		t.Run(test.name, func(t *testing.T) {
			t.Parallel()
			runTest(t, test, opts)
		})
	}
	if ran == 0 && opts.Binary != "" {
		t.Errorf("no archive under %s is flagged -binary", dir)
	}
}

// runTest runs one archive, reporting to t.
func runTest(t testing.TB, test *test, opts Options) {
	r := &runner{t: t, test: test, opts: opts, started: time.Now()}
	r.run()
}

// runner runs one archive.
type runner struct {
	t       testing.TB
	test    *test
	opts    Options
	started time.Time
	// after holds the markers that run once the action that names them is
	// done (after=label), by label.
	after map[string][]*mark
	// failures counts the marker errors reported so far.
	failures int
}

func (r *runner) run() {
	t := r.t
	// Markers that change the workspace (a code action that is applied, an
	// edit) each get a session of their own, so no marker sees another's
	// effects; after=label markers run in the session of that action.
	var now, actions []*mark
	r.after = map[string][]*mark{}
	for _, m := range r.test.marks {
		if _, ok := markerFuncs[m.name]; !ok {
			t.Errorf("%s: unknown marker %s (see lsp/testdata/markers/README.md)", m.pos, m.name)
			continue
		}
		if v, ok := m.named["after"]; ok {
			if v.kind != kindIdent {
				t.Errorf("%s: after= names the golden of a codeaction or edit marker", m.pos)
				continue
			}
			r.after[v.str] = append(r.after[v.str], m)
			continue
		}
		if m.mutates() {
			actions = append(actions, m)
		} else {
			now = append(now, m)
		}
	}

	s := r.newSession()
	for _, m := range now {
		r.invoke(s, m)
	}
	s.checkAllMatched()

	for _, m := range actions {
		r.invoke(r.newSession(), m)
	}
	for _, label := range sortedKeys(r.after) {
		for _, m := range r.after[label] {
			t.Errorf("%s: after=%s, but no codeaction or edit marker has the golden %s", m.pos, label, label)
		}
	}
	r.finishGoldens()
}

// invoke runs one marker, then (for an action) the markers that wait for
// it; those are skipped when the action failed, as what they would say
// could only mislead.
func (r *runner) invoke(s *session, m *mark) {
	r.t.Helper()
	before := r.failures
	markerFuncs[m.name](s, m)
	if !m.mutates() {
		return
	}
	label := m.args[len(m.args)-1].str
	waiting := r.after[label]
	delete(r.after, label)
	s.lenses = nil
	if r.failures > before {
		r.skip(waiting)
		return
	}
	for _, w := range waiting {
		r.invoke(s, w)
	}
}

// skip marks what skipped markers (and the markers waiting for them) name
// as used, so their goldens are not reported as unused.
func (r *runner) skip(ms []*mark) {
	for _, m := range ms {
		for _, a := range m.args {
			if g := r.test.golden[a.str]; a.kind == kindIdent && g != nil {
				g.used = true
			}
		}
		if m.mutates() {
			label := m.args[len(m.args)-1].str
			waiting := r.after[label]
			delete(r.after, label)
			r.skip(waiting)
		}
	}
}

// mutates reports whether the marker changes the workspace.
func (m *mark) mutates() bool {
	switch m.name {
	case "codeaction":
		return len(m.args) >= 3
	case "edit", "rename":
		return true
	}
	return false
}

// A session is one editor connected to one server over a fresh copy of the
// workspace.
type session struct {
	r      *runner
	c      *lsptest.Client
	root   string
	binary bool
	open   map[string]bool // paths the editor opened
	// diags are the diagnostics of each open document as the markers found
	// them; diag markers tick them off.
	diags  map[string][]*gotDiag
	lenses map[string][]*gotLens
}

type gotDiag struct {
	protocol.Diagnostic
	matched bool
}

type gotLens struct {
	protocol.CodeLens
	matched bool
}

// defaultCapabilities are those of an editor like VS Code: versioned
// workspace edits that may create files and carry change annotations,
// code actions whose edit is resolved when picked, showDocument, file
// watching, workspace/configuration.
func defaultCapabilities() protocol.ClientCapabilities {
	yes := true
	return protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{
			ApplyEdit:             &yes,
			Configuration:         &yes,
			WorkspaceFolders:      &yes,
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes},
			WorkspaceEdit: &protocol.WorkspaceEditClientCapabilities{
				DocumentChanges:         &yes,
				ResourceOperations:      []protocol.ResourceOperationKind{protocol.ResourceOperationKindCreate},
				ChangeAnnotationSupport: &protocol.ChangeAnnotationsSupportOptions{GroupsOnLabel: &yes},
			},
		},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &yes},
			CodeAction: &protocol.CodeActionClientCapabilities{
				DataSupport:    &yes,
				ResolveSupport: protocol.ClientCodeActionResolveOptions{Properties: []string{"edit"}},
			},
		},
		Window: &protocol.WindowClientCapabilities{ShowDocument: &protocol.ShowDocumentClientCapabilities{Support: true}},
	}
}

// newSession writes the workspace, starts a server, opens the documents and
// collects their diagnostics.
func (r *runner) newSession() *session {
	t := r.t
	t.Helper()
	root := t.TempDir()
	s := &session{r: r, root: root, binary: r.opts.Binary != "", open: map[string]bool{}}
	for _, f := range r.test.files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range r.test.mtimes {
		for _, f := range r.test.files {
			if m.path == "*" || f == r.test.lookup(m.path) {
				p := filepath.Join(root, filepath.FromSlash(f.path))
				if err := os.Chtimes(p, m.at, m.at); err != nil {
					t.Fatal(err)
				}
			}
		}
		if m.path != "*" && r.test.lookup(m.path) == nil {
			t.Fatalf("%s: mtimes names %s, which is not a file of the archive", r.test.file, m.path)
		}
	}

	cfg := lsptest.Config{Root: root, Settings: r.test.settings.Settings, ApplyToBuffers: true}
	init := map[string]any{"debounceMs": 0} // no waiting in tests
	for k, v := range r.test.settings.InitializationOptions {
		init[k] = v
	}
	cfg.InitializationOptions = init
	caps := defaultCapabilities()
	if raw := r.test.settings.Capabilities; len(raw) > 0 {
		caps = protocol.ClientCapabilities{}
		if err := protocol.Unmarshal(raw, &caps); err != nil {
			t.Fatalf("%s: settings.json capabilities: %v", r.test.file, err)
		}
	}
	cfg.Capabilities = &caps
	if s.binary {
		s.c = lsptest.StartBinary(t, r.opts.Binary, cfg)
	} else {
		s.c = lsptest.Start(t, cfg)
	}

	for _, f := range r.test.files {
		if !r.opens(f.path) {
			continue
		}
		s.c.OpenAs(f.path, languageID(f.path), f.text)
		s.open[f.path] = true
	}
	for _, g := range r.test.flags.open {
		if !slices.ContainsFunc(r.test.files, func(f *file) bool { return globMatch(g, f.path) }) {
			t.Errorf("%s: -open=%s matches no file of the archive", r.test.file, g)
		}
	}
	s.c.Sync()
	// What the server pushed for each document: in process, the last
	// publish once the server is at rest; a process publishes on its own
	// time, so wait for the first publish of each document it analyses.
	pushed := map[string][]protocol.Diagnostic{}
	for _, f := range r.test.files {
		switch {
		case !s.open[f.path]:
		case !s.binary:
			pushed[f.path] = s.published(f.path)
		case analysis.Classify(s.abs(f.path), []byte(f.text)) != analysis.KindNone:
			pushed[f.path] = s.c.WaitDiagnostics(s.c.URI(f.path), 1).Params.Diagnostics
		}
	}
	s.diags = map[string][]*gotDiag{}
	for p, ds := range pushed {
		for _, d := range ds {
			s.diags[p] = append(s.diags[p], &gotDiag{Diagnostic: d})
		}
	}
	s.checkPullAgrees(pushed)
	if r.test.flags.cli {
		s.checkCLIAgrees()
	}
	return s
}

// opens reports whether the editor opens p: every file, unless -open says
// which.
func (r *runner) opens(p string) bool {
	if len(r.test.flags.open) == 0 {
		return true
	}
	for _, g := range r.test.flags.open {
		if globMatch(g, p) {
			return true
		}
	}
	return false
}

// globMatch matches a path or a suffix of it after a slash.
func globMatch(glob, p string) bool {
	for {
		if ok, _ := path.Match(glob, p); ok {
			return true
		}
		i := strings.Index(p, "/")
		if i < 0 {
			return false
		}
		p = p[i+1:]
	}
}

func languageID(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".md":
		return "markdown"
	case ".json":
		return "json"
	case ".jsonc":
		return "jsonc"
	case ".go":
		return "go"
	}
	return "plaintext"
}

func (s *session) abs(rel string) string { return filepath.Join(s.root, filepath.FromSlash(rel)) }

// rel is the workspace path of a URI, or the URI itself outside it.
func (s *session) rel(u uri.URI) string {
	p, err := filepath.Rel(s.root, u.FsPath())
	if err != nil || strings.HasPrefix(p, "..") {
		return string(u)
	}
	return filepath.ToSlash(p)
}

// published is what the server last published for p (in-process, after
// Sync) or what it reports now when asked (a binary, whose publishes may
// still be on their way).
func (s *session) published(p string) []protocol.Diagnostic {
	u := s.c.URI(p)
	if s.binary {
		return s.pull(u)
	}
	ps := s.c.Published(u)
	if len(ps) == 0 {
		return nil
	}
	return ps[len(ps)-1].Params.Diagnostics
}

func (s *session) pull(u uri.URI) []protocol.Diagnostic {
	rep, ok := s.c.Pull(u, "").(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok {
		s.r.t.Fatalf("textDocument/diagnostic for %s: not a full report", s.rel(u))
	}
	return rep.Items
}

// checkPullAgrees: a pull for an open document reports what was pushed.
func (s *session) checkPullAgrees(pushed map[string][]protocol.Diagnostic) {
	for _, p := range sortedKeys(s.open) {
		pulled := s.pull(s.c.URI(p))
		if len(pushed[p]) == 0 && len(pulled) == 0 {
			continue
		}
		a, _ := json.Marshal(pushed[p])
		b, _ := json.Marshal(pulled)
		if string(a) != string(b) {
			s.r.t.Errorf("%s: textDocument/diagnostic and the publish disagree:\npull:\n%s\npush:\n%s",
				p, s.formatDiags(p, pulled), s.formatDiags(p, pushed[p]))
		}
	}
}

// text is the current text of a workspace file: the editor's copy of an
// open document, else the file on disk.
func (s *session) text(p string) (string, bool) {
	if text, _, ok := s.c.Text(s.c.URI(p)); ok {
		return text, true
	}
	b, err := os.ReadFile(s.abs(p))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// checkAllMatched reports the diagnostics and lenses no marker spoke of.
func (s *session) checkAllMatched() {
	t := s.r.t
	if !s.r.test.flags.ignoreExtraDiags {
		for _, p := range sortedKeys(s.diags) {
			for _, d := range s.diags[p] {
				if !d.matched {
					t.Errorf("%s: unexpected diagnostic %s\n\tto expect it: %s", s.fileLine(p, int(d.Range.Start.Line)),
						s.formatDiag(p, d.Diagnostic), s.suggestDiag(p, d.Diagnostic))
				}
			}
		}
	}
	for _, p := range sortedKeys(s.lenses) {
		for _, l := range s.lenses[p] {
			if !l.matched {
				t.Errorf("%s: unexpected code lens %q", s.fileLine(p, int(l.Range.Start.Line)), title(l.CodeLens))
			}
		}
	}
}

// fileLine names a line of a workspace file, with the archive line it
// comes from.
func (s *session) fileLine(p string, line int) string {
	if f := s.r.test.lookup(p); f != nil && f.path == p && line < len(f.lines) {
		return fmt.Sprintf("%s:%d (%s:%d)", p, line+1, s.r.test.file, f.lines[line])
	}
	return fmt.Sprintf("%s:%d", p, line+1)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (s *session) errorf(m *mark, format string, args ...any) {
	s.r.t.Helper()
	s.r.failures++
	s.r.t.Errorf("%s: %s: %s", m.pos, m.name, fmt.Sprintf(format, args...))
}

// checkCLIAgrees: `charter-lsp check` (the analysis the CLI runs, with the
// project's configuration file) finds exactly what the server published
// for each open document: codes, severities, ranges and messages.
func (s *session) checkCLIAgrees() {
	for _, p := range sortedKeys(s.open) {
		// A snapshot of the disk: the engine `charter-lsp check` runs.
		ds, err := workspace.NewSession(workspace.Options{}).Snapshot().Diagnostics(context.Background(), s.abs(p))
		if err != nil {
			s.r.t.Errorf("%s: check: %v", p, err)
			continue
		}
		var cli, lsp []string
		for _, d := range ds {
			if d.Severity == diag.SeverityOff {
				continue
			}
			r := protocol.Range{
				Start: protocol.Position{Line: uint32(d.Range.Start.Line), Character: uint32(d.Range.Start.Character)},
				End:   protocol.Position{Line: uint32(d.Range.End.Line), Character: uint32(d.Range.End.Character)},
			}
			cli = append(cli, fmt.Sprintf("%s %s %s: %s", formatRange(r), d.Severity, d.Code, d.Message))
		}
		for _, d := range s.diags[p] {
			lsp = append(lsp, fmt.Sprintf("%s %s %s: %s", formatRange(d.Range), severityName(d.Severity), diagCode(d.Diagnostic), diagMessage(d.Diagnostic)))
		}
		sort.Strings(cli)
		sort.Strings(lsp)
		if a, b := strings.Join(cli, "\n"), strings.Join(lsp, "\n"); a != b {
			s.r.t.Errorf("%s: `charter-lsp check` and the server disagree (-check +server):\n%s", p, lineDiff(a+"\n", b+"\n"))
		}
	}
}
