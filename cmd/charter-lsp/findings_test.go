package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// writeFiles writes files (path → content, slash-separated) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// JSON output names every file the same way: a related place is relative
// to the working folder as the diagnostic's own file is, not absolute.
func TestJSONRelatedFilesRelative(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".pi/charters/dup/charter.md":  "# Charter: dup\n\n## Objective\n\nShip it.\n",
		".pi/charters/dup/criteria.md": "# Criteria\n\n## m1 First\n\n### VAL-DUP-001 — One\nVerifier: manual\nBecause: a person looks\n\n### VAL-DUP-001 — Two\nVerifier: manual\nBecause: a person looks\n",
	})
	out, errOut, _ := cli(t, dir, "", "check", "--format", "json")
	var ds []struct {
		File    string `json:"file"`
		Code    string `json:"code"`
		Related []struct {
			File string `json:"file"`
		} `json:"related"`
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	n := 0
	for _, d := range ds {
		for _, r := range d.Related {
			n++
			if filepath.IsAbs(r.File) || r.File != d.File {
				t.Errorf("%s in %s: related file %q, want %q", d.Code, d.File, r.File, d.File)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no related place to look at:\n%s", out)
	}
}

// `status DIR` prints command lines that run when pasted where status ran,
// not only inside DIR: a user who typed `status examples/pi-project` pastes
// into the same shell.
func TestStatusSuggestionsRunFromHere(t *testing.T) {
	project, _ := testfixture.PiProject(t)
	here := filepath.Dir(project)
	arg := filepath.Base(project)
	for _, format := range []string{"json", "text"} {
		out, errOut, code := cli(t, here, "", "status", arg, "--format", format, "--now", "2026-11-13T12:00:00Z")
		if code != 0 {
			t.Fatalf("status %s: exit %d: %s", arg, code, errOut)
		}
		var lines []string
		if format == "json" {
			var sts []struct {
				NextActions []struct{ CLI string } `json:"nextActions"`
			}
			if err := json.Unmarshal([]byte(out), &sts); err != nil {
				t.Fatal(err)
			}
			for _, a := range sts[0].NextActions {
				if a.CLI != "" {
					lines = append(lines, a.CLI)
				}
			}
		} else {
			for _, l := range strings.Split(out, "\n") {
				if cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "run:"); ok {
					lines = append(lines, strings.TrimSpace(cmd))
				}
			}
		}
		if len(lines) < 2 {
			t.Fatalf("%s: only %d command lines:\n%s", format, len(lines), out)
		}
		for _, line := range lines {
			words := shellWords(t, line)
			if words[1] == "record" {
				continue // it would write; its --charter is checked below
			}
			if _, errOut, code := cli(t, here, "", words[1:]...); code != 0 && !(words[1] == "check" && code == 1) {
				t.Errorf("%s (pasted in the folder status ran in): exit %d, %s", line, code, errOut)
			}
		}
		for _, line := range lines {
			words := shellWords(t, line)
			for i, w := range words {
				if w == "--charter" {
					if _, err := os.Stat(filepath.Join(here, words[i+1], "criteria.md")); err != nil {
						t.Errorf("%s: --charter %s is no charter from here", line, words[i+1])
					}
				}
			}
		}
	}
}
