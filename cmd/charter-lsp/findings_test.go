package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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
