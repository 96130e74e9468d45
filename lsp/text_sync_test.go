package lsp_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// Incremental edits must apply exactly: columns are UTF-16 code units, and
// lines end at \n, \r\n or \r.
func TestIncrementalEditsApplyExactly(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		edits [][]lsptest.Edit // one didChange per element
		want  string
	}{
		{
			name:  "insert in ASCII",
			text:  "Charter\nhello\n",
			edits: [][]lsptest.Edit{{{StartLine: 1, StartChar: 5, EndLine: 1, EndChar: 5, Text: " world"}}},
			want:  "Charter\nhello world\n",
		},
		{
			name: "after non-ASCII and a surrogate pair",
			// é is one UTF-16 unit, 🚀 two: "x" sits at column 4.
			text:  "é🚀 x\n",
			edits: [][]lsptest.Edit{{{StartLine: 0, StartChar: 4, EndLine: 0, EndChar: 5, Text: "ÿ"}}},
			want:  "é🚀 ÿ\n",
		},
		{
			name:  "replace across CRLF lines",
			text:  "one\r\ntwo\r\nthree\r\n",
			edits: [][]lsptest.Edit{{{StartLine: 0, StartChar: 2, EndLine: 2, EndChar: 1, Text: "E-T"}}},
			want:  "onE-Three\r\n",
		},
		{
			name:  "lone CR ends a line",
			text:  "a\rb\rc",
			edits: [][]lsptest.Edit{{{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 1, Text: "C"}}},
			want:  "a\rb\rC",
		},
		{
			name: "several changes in one notification apply in order",
			text: "abc\ndef\n",
			edits: [][]lsptest.Edit{{
				{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 0, Text: "X\n"},
				{StartLine: 1, StartChar: 3, EndLine: 2, EndChar: 0, Text: ""},
			}},
			want: "X\nabcdef\n",
		},
		{
			name:  "ranges past the end clamp",
			text:  "short\n",
			edits: [][]lsptest.Edit{{{StartLine: 0, StartChar: 99, EndLine: 7, EndChar: 3, Text: "!"}}},
			want:  "short!",
		},
		{
			name:  "a column inside a surrogate pair stays before it",
			text:  "🚀z",
			edits: [][]lsptest.Edit{{{StartLine: 0, StartChar: 1, EndLine: 0, EndChar: 1, Text: "<"}}},
			want:  "<🚀z",
		},
		{
			name: "successive notifications",
			text: "T\n",
			edits: [][]lsptest.Edit{
				{{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 0, Text: "ü"}},
				{{StartLine: 1, StartChar: 1, EndLine: 1, EndChar: 1, Text: "ber\r\n"}},
				{{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 0, Text: "end"}},
			},
			want: "T\nüber\r\nend",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
			// The text sits under the probe's heading (probe_test.go): the
			// edits' lines are one further down.
			u := c.Open(probeFile, probeHead+tt.text)
			for i, e := range tt.edits {
				for j := range e {
					e[j].StartLine++
					e[j].EndLine++
				}
				c.Change(u, int32(i+2), e...)
			}
			got := checkedIn(c.WaitDiagnostics(u, int32(len(tt.edits)+1)))
			if want := linesOf(tt.want); !slices.Equal(got, want) {
				t.Errorf("checked %q, want %q (the text %q)", got, want, tt.want)
			}
		})
	}
}

func TestVersionsMustIncrease(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(probeFile, probeHead+"a")
	c.Replace(u, 3, probeHead+"version 3")
	c.Replace(u, 2, probeHead+"stale version 2") // refused
	c.Replace(u, 3, probeHead+"duplicate 3")     // refused
	if got := checkedIn(c.WaitDiagnostics(u, 3)); !slices.Equal(got, []string{"version 3"}) {
		t.Errorf("version 3 checked as %q", got)
	}
	c.Change(u, 4, lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 7, Text: "v"})
	if got := checkedIn(c.WaitDiagnostics(u, 4)); !slices.Equal(got, []string{"v 3"}) {
		t.Errorf("after version 4, checked %q, want [\"v 3\"]", got)
	}
	for _, p := range c.Published(u) {
		for _, l := range checkedIn(p) {
			if l == "stale version 2" || l == "duplicate 3" {
				t.Errorf("a refused version was checked: %q", l)
			}
		}
	}
}

func TestDiagnosticsFollowEdits(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	// "é🚀" is 3 UTF-16 units; CRLF line ends. The probe's line without a
	// colon is the diagnostic (probe_test.go).
	u := c.OpenAs(probeFile, "charter", "## Commands\r\né🚀 TODO\r\nrun: go test\r\n")
	p := c.WaitDiagnostics(u, 1)
	assertRanges(t, p, "1:0-1:8")
	d := p.Params.Diagnostics[0]
	if code, _ := d.Code.(protocol.String); code != "malformed-command" {
		t.Errorf("code = %v, want malformed-command", d.Code)
	}
	if d.Severity != protocol.DiagnosticSeverityWarning || !strings.HasSuffix(string(d.CodeDescription.Href), "#malformed-command") {
		t.Errorf("severity %v, codeDescription %q", d.Severity, d.CodeDescription.Href)
	}
	if src, _ := d.Source.Get(); src != "charter" {
		t.Errorf("source = %q, want charter", src)
	}

	c.Change(u, 2, lsptest.Edit{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 0, Text: "TODO\r\n"})
	assertRanges(t, c.WaitDiagnostics(u, 2), "1:0-1:8", "2:0-2:4")

	c.Change(u, 3, lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 2, EndChar: 4, Text: "done: é🚀"})
	p = c.WaitDiagnostics(u, 3)
	assertRanges(t, p)
	if !strings.Contains(p.Raw, `"diagnostics":[]`) {
		t.Errorf("empty diagnostics sent as %s, want []", p.Raw)
	}
}

// Unchanged diagnostics are not sent again. A client that reads the
// publish's version holds a publish only for its version (it drops one
// that arrives after its next edit), so it gets each new version once; a
// re-check of the same version sends it nothing. A client that ignores the
// version (VS Code) is not sent them again at all.
func TestUnchangedDiagnosticsAreNotRepublished(t *testing.T) {
	for _, c := range []struct {
		name     string
		versions bool
		want     []int32
	}{
		{"client reads versions", true, []int32{1, 2, 3}},
		{"client ignores versions", false, []int32{1, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			yes := true
			caps := &protocol.ClientCapabilities{
				Workspace:    &protocol.WorkspaceClientCapabilities{DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes}},
				TextDocument: &protocol.TextDocumentClientCapabilities{PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &c.versions}},
			}
			cl := lsptest.Start(t, lsptest.Config{Capabilities: caps, InitializationOptions: map[string]any{"debounceMs": 0}})
			u := cl.Open(probeFile, probeHead+"TODO\n")
			cl.WaitDiagnostics(u, 1)
			checks := cl.LSP.Checks()
			cl.Change(u, 2, lsptest.Edit{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 0, Text: "more: text\n"})
			cl.Sync() // version 2 is checked: same diagnostics
			if n := cl.LSP.Checks() - checks; n != 1 {
				t.Errorf("version 2: %d checks, want 1", n)
			}
			cl.Change(u, 3, lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 0, Text: "x"})
			cl.WaitDiagnostics(u, 3)
			checks = cl.LSP.Checks()
			cl.FilesChanged(protocol.FileChangeTypeCreated, ".pi/charters/probe/work/m1/evidence/2026-01-01T00-00-00-000Z/evidence.json")
			cl.Sync() // version 3 is checked again: same diagnostics
			if n := cl.LSP.Checks() - checks; n != 1 {
				t.Errorf("version 3 after a change of its charter's evidence: %d checks, want 1", n)
			}
			var versions []int32
			for _, p := range cl.Published(u) {
				v, _ := p.Params.Version.Get()
				versions = append(versions, v)
			}
			if !slices.Equal(versions, c.want) {
				t.Errorf("published versions %v, want %v", versions, c.want)
			}
		})
	}
}

func TestCloseClearsDiagnostics(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(probeFile, probeHead+"TODO")
	c.WaitDiagnostics(u, 1)
	c.Close(u)
	p := c.WaitDiagnostics(u, 0)
	if !strings.Contains(p.Raw, `"diagnostics":[]`) || strings.Contains(p.Raw, "null") {
		t.Errorf("close published %s, want an empty array", p.Raw)
	}
}

func TestOnlyCharterFilesGetDiagnostics(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	// The same text everywhere: what a check reports in a charter file.
	const text = "## Commands\nTODO\n### VAL-A-001 — Implement TODO\nVerifier: manual\nBecause: b\n"
	readme := c.Open("README.md", text)
	notes := c.Open("docs/notes.md", text)
	// Recognised by path whatever the language id.
	criteria := c.OpenAs(".pi/charters/x/criteria.md", "plaintext", text)
	rp1 := c.OpenAs(".rp1/context/charter.md", "charter", text)
	if p := c.WaitDiagnostics(criteria, 1); len(p.Params.Diagnostics) == 0 {
		t.Error("criteria.md: no diagnostics")
	}
	if p := c.WaitDiagnostics(rp1, 1); len(p.Params.Diagnostics) == 0 {
		t.Error("the rp1 charter: no diagnostics")
	}
	c.Change(readme, 2, lsptest.Edit{Text: "x"})
	c.Close(notes)
	c.Sync()
	for _, u := range []string{"README.md", "docs/notes.md"} {
		if got := c.Published(c.URI(u)); len(got) != 0 {
			t.Errorf("%s got %d publishes, want none", u, len(got))
		}
	}
	// Pull diagnostics answer an empty full report for them.
	rep, ok := c.Pull(readme, "").(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || rep.Kind != "full" || len(rep.Items) != 0 {
		t.Errorf("pull for README.md = %#v", rep)
	}
}

func TestPullDiagnostics(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(probeFile, probeHead+"TODO\nTODO")
	full, ok := c.Pull(u, "").(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || full.Kind != "full" || full.ResultID == nil || len(full.Items) != 2 {
		t.Fatalf("pull = %#v, want a full report with 2 items and a resultId", full)
	}
	same, ok := c.Pull(u, *full.ResultID).(*protocol.RelatedUnchangedDocumentDiagnosticReport)
	if !ok || same.Kind != "unchanged" || same.ResultID != *full.ResultID {
		t.Errorf("pull with the same resultId = %#v, want unchanged", same)
	}
	c.Replace(u, 2, probeHead+"TODO")
	again, ok := c.Pull(u, *full.ResultID).(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(again.Items) != 1 || *again.ResultID == *full.ResultID {
		t.Errorf("pull after an edit = %#v, want a new full report", again)
	}
}

// assertRanges compares the diagnostics' ranges as "line:col-line:col".
func assertRanges(t *testing.T, p lsptest.Published, want ...string) {
	t.Helper()
	var got []string
	for _, d := range p.Params.Diagnostics {
		r := d.Range
		got = append(got, fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ranges = %v, want %v", got, want)
	}
}
