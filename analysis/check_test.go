package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code.String())
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckConfigFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, ".charter-lsp.jsonc")
	writeFile(t, bad, `{"severity": {"stale-evidence": "loud"}}`)
	ds, err := CheckFile(vfs.OS, bad, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Code != diag.ConfigInvalid || !strings.Contains(ds[0].Message, "loud") {
		t.Fatalf("invalid config: %+v", ds)
	}
	writeFile(t, bad, "{\n  // fine\n  \"severity\": {\"stale-evidence\": \"error\"},\n}\n")
	if ds, _ := CheckFile(vfs.OS, bad, Config{}); len(ds) != 0 {
		t.Fatalf("valid config reported: %+v", ds)
	}
}

func TestCheckFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, ".rp1", "context", "charter.md")
	writeFile(t, big, "# Project Charter: X\n\n"+strings.Repeat("filler text\n", MaxFileSize/12+1))
	ds, err := CheckFile(vfs.OS, big, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Code != diag.FileTooLarge {
		t.Fatalf("oversized charter: %v", codes(ds))
	}
	// Near miss: just under the limit is analysed normally.
	writeFile(t, big, "# Project Charter: X\n")
	ds, _ = CheckFile(vfs.OS, big, Config{})
	for _, d := range ds {
		if d.Code == diag.FileTooLarge {
			t.Fatal("a small file reported as too large")
		}
	}
	// A large file that is not a charter is none of our business.
	other := filepath.Join(dir, "notes.md")
	writeFile(t, other, strings.Repeat("x", MaxFileSize+1))
	if ds, _ := CheckFile(vfs.OS, other, Config{}); len(ds) != 0 {
		t.Fatalf("non-charter file reported: %v", codes(ds))
	}
}

// CheckFile reads through the FS it is given, so an editor's unsaved text
// is what gets checked.
func TestCheckFileReadsThroughFS(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".rp1", "context", "charter.md")
	writeFile(t, p, "# Project Charter: X\n")
	overlay := overlayFS{FS: vfs.OS, path: p, text: []byte(complete)}
	onDisk, _ := CheckFile(vfs.OS, p, Config{})
	inEditor, _ := CheckFile(overlay, p, Config{})
	if len(onDisk) == 0 || len(inEditor) != 0 {
		t.Fatalf("disk %v, editor %v: the overlay's complete charter should have no diagnostics", codes(onDisk), codes(inEditor))
	}
}

const complete = `# Project Charter: X

**Status**: Draft

## Problem & Context

Teams lose hours every week. The cause is manual reconciliation.

## Target Users

Accountants in mid-size firms. They close the books monthly.

## Business Rationale

It saves two days a month. It also reduces audit findings.

## Scope Guardrails

- We will import bank exports.
- We won't move money.

## Success Criteria

- Reconciliation takes under an hour.
- Auditors accept the trail without rework.
`

type overlayFS struct {
	vfs.FS
	path string
	text []byte
}

func (o overlayFS) ReadFile(name string) ([]byte, error) {
	if name == o.path {
		return bytes.Clone(o.text), nil
	}
	return o.FS.ReadFile(name)
}

// TestCheckChartersFolder: check on a project holding a current-format
// charter reports the .charters/ diagnostics of its files and never rp1's
// (a charter.md with ## Scope used to get four false section-missing).
func TestCheckChartersFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".charters", "20260702-101500-ship")
	writeFile(t, filepath.Join(dir, "charter.md"), "# Objective\nShip it.\n\n## Scope\nCore only.\n\n## Phases\n1. Build - done\n")
	writeFile(t, filepath.Join(dir, "state.json"), `{"charterId":"20260702-101500-ship","schemaVersion":"phases","objective":"Ship it","status":"done"}`)
	writeFile(t, filepath.Join(dir, "events.jsonl"), "{\"type\":\"charter_created\"}\nnot json\n")
	c := &Checker{FS: vfs.OS}
	ds, err := c.CheckPath(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, d := range ds {
		got[filepath.Base(d.File)+" "+d.Code.String()] = true
		if d.Code.Rule().Family == "rp1" {
			t.Errorf("rp1 diagnostic on a .charters/ charter: %s %s", d.Code, d.Message)
		}
	}
	for _, want := range []string{"charter.md phase-suffix-variant", "state.json state-invalid", "events.jsonl events-line-invalid"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	// The same through CheckFile of one file, with the configuration's severity.
	ds, err = CheckFile(vfs.OS, filepath.Join(dir, "charter.md"), Config{Severity: map[string]string{"phase-suffix-variant": "error"}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range ds {
		if d.Code == diag.PhaseSuffixVariant {
			found = d.Severity == diag.SeverityError && d.Range.Start.Line == 7
		}
	}
	if !found {
		t.Errorf("phase-suffix-variant at line 8 with severity error: %+v", ds)
	}
}
