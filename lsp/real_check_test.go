package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// With the real analysis.CheckFile, the pi-project fixture's criteria.md
// gets the findings its README lists, each on the line of its VAL, and an
// edit that fixes one makes it go away in the next version's publish.
func TestRealDiagnosticsOnPiFixture(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "pi-project"), root)
	rel := ".pi/charters/auth-rework/criteria.md"
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")

	c := lsptest.Start(t, lsptest.Config{Root: root, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open(rel, text)
	p := c.WaitDiagnostics(u, 1)
	if len(p.Params.Diagnostics) == 0 {
		t.Skip("analysis.CheckFile returns no diagnostics for the fixture yet")
	}

	lineOf := func(needle string) uint32 {
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, needle) {
				return uint32(i)
			}
		}
		t.Fatalf("fixture has no line with %q", needle)
		return 0
	}
	want := []struct {
		code string
		line uint32
	}{
		{"val-id-invalid", lineOf("### VAL-roll-002")},
		{"invalid-verifier", 0}, // somewhere in VAL-ROLL-003
		{"field-not-parsed", 0}, // VAL-SESS-004's bullets
	}
	found := func(code string) []protocol.Diagnostic {
		var out []protocol.Diagnostic
		for _, d := range c.WaitDiagnostics(u, 1).Params.Diagnostics {
			if s, _ := d.Code.(protocol.String); string(s) == code {
				out = append(out, d)
			}
		}
		return out
	}
	for _, w := range want {
		ds := found(w.code)
		if len(ds) == 0 {
			t.Errorf("no %s diagnostic", w.code)
			continue
		}
		if w.line != 0 && ds[0].Range.Start.Line != w.line {
			t.Errorf("%s on line %d, want %d", w.code, ds[0].Range.Start.Line, w.line)
		}
	}

	// Fix the lower-case id; version 2 no longer has val-id-invalid.
	line := lineOf("### VAL-roll-002")
	col := uint32(strings.Index(strings.Split(text, "\n")[line], "roll"))
	c.Change(u, 2, lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col + 4, Text: "ROLL"})
	for _, d := range c.WaitDiagnostics(u, 2).Params.Diagnostics {
		if s, _ := d.Code.(protocol.String); s == "val-id-invalid" {
			t.Errorf("val-id-invalid still reported after the fix: %+v", d.Range)
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The server publishes exactly what analysis.CheckFile finds for an rp1
// charter (codes, messages, ranges, severities), and the next version's
// publish reflects an edit.
func TestRealDiagnosticsOnRP1Charter(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "rp1"), root)
	path := filepath.Join(root, "charter.md")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := analysis.CheckFile(vfs.OS, path, analysis.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Skip("analysis.CheckFile returns no diagnostics for the rp1 fixture yet")
	}

	c := lsptest.Start(t, lsptest.Config{Root: root, InitializationOptions: map[string]any{"debounceMs": 0}})
	u := c.Open("charter.md", string(src))
	got := c.WaitDiagnostics(u, 1).Params.Diagnostics
	if len(got) != len(want) {
		t.Fatalf("published %d diagnostics, analysis finds %d", len(got), len(want))
	}
	diag.Sort(want)
	for i, w := range want {
		g := got[i]
		code, _ := g.Code.(protocol.String)
		msg, _ := g.Message.(protocol.String)
		r := g.Range
		if string(code) != w.Code.String() || string(msg) != w.Message || int(g.Severity) != int(w.Severity) ||
			int(r.Start.Line) != w.Range.Start.Line || int(r.Start.Character) != w.Range.Start.Character ||
			int(r.End.Line) != w.Range.End.Line || int(r.End.Character) != w.Range.End.Character {
			t.Errorf("diagnostic %d = %s %q %+v, want %s %q %+v", i, code, msg, r, w.Code, w.Message, w.Range)
		}
	}

	// Appending the Success Criteria section removes its section-missing.
	lines := strings.Count(string(src), "\n")
	c.Change(u, 2, lsptest.Edit{StartLine: uint32(lines + 1), Text: "\n## Success Criteria\n\nUsers finish the flow in under a minute. Failures are reported within a day.\n"})
	for _, d := range c.WaitDiagnostics(u, 2).Params.Diagnostics {
		if msg, _ := d.Message.(protocol.String); strings.Contains(string(msg), "Success Criteria") && strings.Contains(string(msg), "missing") {
			t.Errorf("still reported after adding the section: %s", msg)
		}
	}
}
