package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/lsp"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// An external change to a file that is open (an agent writing criteria.md
// while the user edits it) is noticed: the overlay keeps the editor's text
// for that document, and the other open files of its charter are checked
// again against it.
func TestExternalChangeToAnOpenFile(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	// The register's VAL title reads as a task, which its check quotes; the
	// probe's lines in charter.md are quoted by charter.md's (probe_test.go).
	const editorText = "## m1 One\n### VAL-A-001 — Implement the editor's text\nVerifier: manual\nBecause: b\n"
	criteria := c.Open(".pi/charters/auth/criteria.md", editorText)
	charter := c.Open(".pi/charters/auth/charter.md", probeHead+"the charter's line\n")
	c.Sync()

	n := c.LSP.Checks()
	c.WriteFile(".pi/charters/auth/criteria.md", "## m1 One\n### VAL-A-001 — Implement the agent's text\nVerifier: manual\nBecause: b\n")
	c.FilesChanged(protocol.FileChangeTypeChanged, ".pi/charters/auth/criteria.md")
	c.Sync()
	if got := c.LSP.Checks() - n; got < 1 {
		t.Errorf("a disk change to open criteria.md ran %d checks, want charter.md re-checked", got)
	}
	pubs := c.Published(charter)
	if got := checkedIn(pubs[len(pubs)-1]); !slices.Equal(got, []string{"the charter's line"}) {
		t.Errorf("charter.md checked as %q", got)
	}
	// The open document's own diagnostics still come from the editor's text.
	rep := c.Pull(criteria, "")
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	var titles []string
	for _, d := range full.Items {
		if d.Code == protocol.String("val-title-task") {
			titles = append(titles, fmt.Sprint(d.Message))
		}
	}
	if !ok || len(titles) != 1 || !strings.Contains(titles[0], `"Implement the editor's text"`) {
		t.Errorf("pull after the disk change: task titles %q, want the editor text's one", titles)
	}
}

// A client that cannot watch files never says the disk changed: the server
// compares what it read with the disk (stats and listings, in the
// background) when the user next types, and a run recorded meanwhile shows
// in the diagnostics — without the keystroke waiting for the look.
func TestDiskChangesSeenWithoutWatching(t *testing.T) {
	root := t.TempDir()
	path, err := gen.Project{Milestones: 2, VALs: 3, Sources: 2}.Write(root)
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	caps := &protocol.ClientCapabilities{
		Workspace:    &protocol.WorkspaceClientCapabilities{Configuration: &yes, WorkspaceFolders: &yes},
		TextDocument: &protocol.TextDocumentClientCapabilities{PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &yes}},
	}
	c := lsptest.Start(t, lsptest.Config{Root: root, Capabilities: caps, InitializationOptions: map[string]any{"debounceMs": 0},
		Options: lsp.Options{RevalidateEvery: time.Nanosecond}})
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := c.Open(".pi/charters/bench/criteria.md", string(text))
	c.WaitDiagnostics(u, 1)
	c.Sync() // the server settled, and the client has what it published
	stale := func() bool {
		pubs := c.Published(u)
		for _, d := range pubs[len(pubs)-1].Params.Diagnostics {
			if d.Code == protocol.String("stale-evidence") {
				return true
			}
		}
		return false
	}
	if stale() {
		t.Fatal("stale evidence before any was recorded")
	}
	// A pass recorded a year before the sources were written (by this
	// machine's clock, whatever its date), for the first VAL, which
	// requires fresh evidence.
	at := time.Now().UTC().AddDate(-1, 0, 0)
	run := filepath.Join(filepath.Dir(path), "work", "m1", "evidence", at.Format("2006-01-02T15-04-05-000Z"), "evidence.json")
	if err := os.MkdirAll(filepath.Dir(run), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run, gen.Evidence("bench", "m1", gen.ID(0, 0), "pass", at.Format("2006-01-02T15:04:05.000Z")), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Change(u, 2, lsptest.Edit{StartLine: 0, EndLine: 0, Text: "x"})
	c.WaitDiagnostics(u, 2)
	c.Sync() // the server settled, and the client has what it published
	if !stale() {
		t.Errorf("the run recorded on disk did not make %s stale: %+v", gen.ID(0, 0), c.Published(u)[len(c.Published(u))-1].Params.Diagnostics)
	}
}
