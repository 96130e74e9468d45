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
			text:  "# Charter\nhello\n",
			edits: [][]lsptest.Edit{{{StartLine: 1, StartChar: 5, EndLine: 1, EndChar: 5, Text: " world"}}},
			want:  "# Charter\nhello world\n",
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
			text: "# T\n",
			edits: [][]lsptest.Edit{
				{{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 0, Text: "ü"}},
				{{StartLine: 1, StartChar: 1, EndLine: 1, EndChar: 1, Text: "ber\r\n"}},
				{{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 0, Text: "end"}},
			},
			want: "# T\nüber\r\nend",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chk := newTodoChecker()
			c := lsptest.Start(t, lsptest.Config{Options: chk.options(), InitializationOptions: map[string]any{"debounceMs": 0}})
			u := c.Open("charter.md", tt.text)
			for i, e := range tt.edits {
				c.Change(u, int32(i+2), e...)
			}
			c.Sync()
			if !chk.saw(c.Path("charter.md"), tt.want) {
				t.Errorf("text = %q, want %q", chk.text(c.Path("charter.md")), tt.want)
			}
		})
	}
}

func TestVersionsMustIncrease(t *testing.T) {
	chk := newTodoChecker()
	c := lsptest.Start(t, lsptest.Config{Options: chk.options(), InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open("charter.md", "a")
	c.Replace(u, 3, "version 3")
	c.Replace(u, 2, "stale version 2") // refused
	c.Replace(u, 3, "duplicate 3")     // refused
	c.Sync()
	path := c.Path("charter.md")
	if !chk.saw(path, "version 3") || chk.saw(path, "stale version 2") || chk.saw(path, "duplicate 3") {
		t.Errorf("last text checked = %q, want the version 3 text and no refused version", chk.text(path))
	}
	c.Change(u, 4, lsptest.Edit{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 7, Text: "v"})
	c.Sync()
	if !chk.saw(path, "v 3") {
		t.Errorf("after version 4, text = %q, want %q", chk.text(path), "v 3")
	}
}

func TestDiagnosticsFollowEdits(t *testing.T) {
	chk := newTodoChecker()
	c := lsptest.Start(t, lsptest.Config{Options: chk.options(), InitializationOptions: map[string]any{"debounceMs": 0}})
	// "é🚀" is 3 UTF-16 units; CRLF line ends.
	u := c.OpenAs("charter.md", "charter", "# Charter\r\né🚀 TODO\r\n")
	p := c.WaitDiagnostics(u, 1)
	assertRanges(t, p, "1:4-1:8")
	d := p.Params.Diagnostics[0]
	if code, _ := d.Code.(protocol.String); code != "section-partial" {
		t.Errorf("code = %v, want section-partial", d.Code)
	}
	if d.Severity != protocol.DiagnosticSeverityWarning || !strings.HasSuffix(string(d.CodeDescription.Href), "#section-partial") {
		t.Errorf("severity %v, codeDescription %q", d.Severity, d.CodeDescription.Href)
	}
	if src, _ := d.Source.Get(); src != "charter" {
		t.Errorf("source = %q, want charter", src)
	}

	c.Change(u, 2, lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 0, Text: "TODO "})
	assertRanges(t, c.WaitDiagnostics(u, 2), "1:0-1:4", "1:9-1:13")

	c.Change(u, 3, lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 13, Text: "done"})
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
			chk := newTodoChecker()
			yes := true
			caps := &protocol.ClientCapabilities{
				Workspace:    &protocol.WorkspaceClientCapabilities{DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes}},
				TextDocument: &protocol.TextDocumentClientCapabilities{PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &c.versions}},
			}
			cl := lsptest.Start(t, lsptest.Config{Options: chk.options(), Capabilities: caps, InitializationOptions: map[string]any{"debounceMs": 0}})
			u := cl.Open("charter.md", "TODO\n")
			cl.WaitDiagnostics(u, 1)
			cl.Change(u, 2, lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 0, Text: "more text\n"})
			cl.Sync() // version 2 is checked: same diagnostics
			cl.Change(u, 3, lsptest.Edit{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 0, Text: "x"})
			cl.WaitDiagnostics(u, 3)
			cl.FilesChanged(protocol.FileChangeTypeCreated, "notes.md")
			cl.Sync() // version 3 is checked again: same diagnostics
			var versions []int32
			for _, p := range cl.Published(u) {
				v, _ := p.Params.Version.Get()
				versions = append(versions, v)
			}
			if !slices.Equal(versions, c.want) {
				t.Errorf("published versions %v, want %v", versions, c.want)
			}
			if n := chk.callCount(); n < 3 {
				t.Errorf("checker ran %d times, want every version checked", n)
			}
		})
	}
}

func TestCloseClearsDiagnostics(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Options: newTodoChecker().options(), InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open("charter.md", "TODO")
	c.WaitDiagnostics(u, 1)
	c.Close(u)
	p := c.WaitDiagnostics(u, 0)
	if !strings.Contains(p.Raw, `"diagnostics":[]`) || strings.Contains(p.Raw, "null") {
		t.Errorf("close published %s, want an empty array", p.Raw)
	}
}

func TestOnlyCharterFilesGetDiagnostics(t *testing.T) {
	chk := newTodoChecker()
	c := lsptest.Start(t, lsptest.Config{Options: chk.options(), InitializationOptions: map[string]any{"debounceMs": 0}})
	readme := c.Open("README.md", "TODO\n")
	notes := c.Open("docs/notes.md", "TODO\n")
	// Recognised by path whatever the language id.
	criteria := c.OpenAs(".pi/charters/x/criteria.md", "plaintext", "TODO\n")
	rp1 := c.OpenAs("charter.md", "charter", "TODO\n")
	c.WaitDiagnostics(criteria, 1)
	c.WaitDiagnostics(rp1, 1)
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
	c := lsptest.Start(t, lsptest.Config{Options: newTodoChecker().options(), InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open("charter.md", "TODO TODO")
	full, ok := c.Pull(u, "").(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || full.Kind != "full" || full.ResultID == nil || len(full.Items) != 2 {
		t.Fatalf("pull = %#v, want a full report with 2 items and a resultId", full)
	}
	same, ok := c.Pull(u, *full.ResultID).(*protocol.RelatedUnchangedDocumentDiagnosticReport)
	if !ok || same.Kind != "unchanged" || same.ResultID != *full.ResultID {
		t.Errorf("pull with the same resultId = %#v, want unchanged", same)
	}
	c.Replace(u, 2, "TODO")
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
