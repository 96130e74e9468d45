package status_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	hostilerepo "github.com/charter-lsp/charter-lsp/internal/hostile"
	"github.com/charter-lsp/charter-lsp/status"
)

// hostile holds terminal escape sequences a cloned repository can put in
// any text status shows: SGR colour, an OSC window title, an OSC 52
// clipboard write, a screen clear, a carriage return, an 8-bit CSI.
const hostile = "A\x1b[31mred\x1b]0;pwned\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J\rB\u009b2J"

// The text dashboard never hands a repository's escape sequences to the
// terminal: titles, names, state.json's status, blockers and notes are
// shown with the control characters escaped.
func TestTextEscapesTerminalControls(t *testing.T) {
	pi := filepath.Join(t.TempDir(), ".pi", "charters", "c")
	for name, content := range map[string]string{
		"charter.md":  "# Charter: " + hostile + "\n\n## Objective\n\n" + hostile + "\n",
		"criteria.md": "# Criteria\n\n## m1 " + hostile + "\n\n### VAL-A-001 — " + hostile + "\nVerifier: manual\nBecause: b\n",
		"state.json":  `{"status":"active\u001b[2J\u001b]0;x\u0007"}`,
	} {
		if err := os.MkdirAll(pi, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pi, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fi := writeCharter(t, map[string]string{
		"charter.md": "## Objective\n\n" + hostile + "\n\n## Criteria\n\n### C1. " + hostile + "\nStatus: pending " + hostile + "\n",
		"state.json": `{"charterId":"20260702-101500-example","schemaVersion":"file-interface","objective":"x\u001b]0;t\u0007","status":"active\u001b[2J"}`,
	})
	for _, dir := range []string{pi, fi} {
		_, out := dashboard(t, dir)
		if i := strings.IndexAny(out, "\x1b\x07\r\u009b"); i >= 0 {
			t.Errorf("%s: dashboard passes a control character to the terminal at %d: %q", dir, i, out)
		}
		if !strings.Contains(out, `A\x1b[31mred`) {
			t.Errorf("%s: the hostile title is not shown escaped:\n%s", dir, out)
		}
	}
}

// The command lines status suggests (`run:`, the JSON's cli, which agents
// run) quote every word that comes from the repository: a charter folder
// or milestone id holding shell syntax is one argument, not a command.
func TestSuggestedCommandsQuoteRepositoryWords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".pi", "charters", "x;touch $HOME'q")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"charter.md":  "# Charter: c\n\n## Objective\n\nDo it.\n",
		"criteria.md": "# Criteria\n\n## m1;id>/tmp/pwned;# Milestone\n\n### VAL-A-001 — Exports open\nVerifier: subagent\nAgent: qa\nTask: open an export\n",
		"state.json":  `{"status":"active"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := statusOf(t, vfs.OS, dir, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var record string
	for _, a := range st.NextActions {
		if a.Tool == "charter_record" {
			record = a.CLI
		}
	}
	want := `charter-lsp record VAL-A-001 --outcome pass --summary '<what you observed>' --feature 'm1;id>/tmp/pwned;#' --source verifier --charter '.pi/charters/x;touch $HOME'\''q'`
	if record != want {
		t.Errorf("record command line\n got %s\nwant %s", record, want)
	}
}

// Every line of the dashboard and of the markdown is ours: the folder
// names, titles and objectives of hostile.ForgedOutput (line breaks then CI
// commands, bidi overrides, escape sequences) print as escaped pieces of
// our lines, in both charter shapes.
func TestTextAndMarkdownLinesAreOurs(t *testing.T) {
	root := hostilerepo.ForgedOutput(t)
	dirs, err := filepath.Glob(filepath.Join(root, "*", "charters", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no charter in the forged project: %v", err)
	}
	dirs = append(dirs, must(filepath.Glob(filepath.Join(root, ".charters", "*")))...)
	for _, dir := range dirs {
		st, out := dashboard(t, dir)
		hostilerepo.CheckOurs(t, "text of "+dir, out, false, false)
		hostilerepo.CheckOurs(t, "markdown of "+dir, status.Markdown([]*status.Status{st}), false, false)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// dashboard computes dir's status and its text dashboard.
func dashboard(t *testing.T, dir string) (*status.Status, string) {
	t.Helper()
	st, err := statusOf(t, vfs.OS, dir, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := status.Text(&b, st); err != nil {
		t.Fatal(err)
	}
	return st, b.String()
}
