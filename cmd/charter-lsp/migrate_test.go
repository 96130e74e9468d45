package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// copyExampleCharters copies examples/charters into a temp project.
func copyExampleCharters(t *testing.T) string {
	t.Helper()
	project := t.TempDir()
	src := filepath.Join("..", "..", "examples", "charters", ".charters")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files, _ := os.ReadDir(filepath.Join(src, e.Name()))
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(src, e.Name(), f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(project, ".charters", e.Name(), f.Name())
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return project
}

func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	return out
}

func TestMigrateDryRunWritesNothing(t *testing.T) {
	project := copyExampleCharters(t)
	before := listing(t, project)
	var out, errOut bytes.Buffer
	code := run([]string{"migrate", filepath.Join(project, ".charters", "20260710-083000-offline-sync"), "--now", "2026-11-23T18:05:09Z"}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if after := listing(t, project); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("a dry run changed the project:\n%v\n%v", before, after)
	}
	for _, want := range []string{"20261123-180509-offline-sync-for-notes/charter.md", "# Objective", "## Acceptance", `"schemaVersion": "phases"`, "events.jsonl (empty)", "Nothing written"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestMigrateWriteThenCheckAndStatus(t *testing.T) {
	project := copyExampleCharters(t)
	old := filepath.Join(project, ".charters", "20260710-083000-offline-sync")
	oldText, _ := os.ReadFile(filepath.Join(old, "charter.md"))
	var out, errOut bytes.Buffer
	if code := run([]string{"migrate", "--write", filepath.Join(old, "charter.md"), "--now", "2026-11-23T18:05:09Z"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	created := filepath.Join(project, ".charters", "20261123-180509-offline-sync-for-notes")
	for _, f := range []string{"charter.md", "state.json", "events.jsonl"} {
		if _, err := os.Stat(filepath.Join(created, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(old, "charter.md")); !bytes.Equal(now, oldText) {
		t.Error("the old charter changed")
	}
	// The new charter checks clean and reads as an Objective charter.
	ds, _ := checkJSON(t, project, created)
	if len(ds) != 0 {
		t.Errorf("the migrated charter has diagnostics: %+v", ds)
	}
	out.Reset()
	if code := run([]string{"status", created, "--format", "json"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("status exit %d: %s", code, errOut.String())
	}
	var st []map[string]any
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || len(st) != 1 || st[0]["generation"] != "objective" || st[0]["listed"] != true {
		t.Fatalf("status of the new charter: %v %s", err, out.String())
	}
	// Again: the name is taken, so the next migration gets -2.
	out.Reset()
	run([]string{"migrate", "--write", old, "--now", "2026-11-23T18:05:09Z"}, nil, &out, &errOut)
	if _, err := os.Stat(created + "-2"); err != nil {
		t.Errorf("second migration: %v\n%s", err, out.String())
	}
}

func TestMigrateRefusesSymlinkedCharters(t *testing.T) {
	outside := t.TempDir()
	// A v3 charter whose project's .charters points outside the project.
	_, charter := testfixture.PiProject(t)
	v3Project := filepath.Dir(filepath.Dir(filepath.Dir(charter)))
	if err := os.Symlink(outside, filepath.Join(v3Project, ".charters")); err != nil {
		t.Skip("no symlinks here")
	}
	var out, errOut bytes.Buffer
	code := run([]string{"migrate", "--write", charter}, nil, &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), "symbolic link") {
		t.Fatalf("exit %d, stderr %q: want a refusal", code, errOut.String())
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the project: %v", entries)
	}
}

func TestMigrateNothingToDoAndUsage(t *testing.T) {
	project := copyExampleCharters(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"migrate", filepath.Join(project, ".charters", "20261012-091500-cut-checkout-time")}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "nothing to migrate") {
		t.Errorf("objective charter: exit %d, %q %q", code, out.String(), errOut.String())
	}
	if code := run([]string{"migrate"}, nil, &out, &errOut); code != 2 {
		t.Errorf("no path: exit %d, want 2", code)
	}
	readme := filepath.Join(project, "README.md")
	os.WriteFile(readme, []byte("# Readme\n"), 0o644)
	errOut.Reset()
	if code := run([]string{"migrate", readme}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "not a charter") {
		t.Errorf("not a charter: exit %d, %q", code, errOut.String())
	}
	// A skeleton charter has nothing to migrate.
	rp1 := filepath.Join(project, ".rp1", "context", "charter.md")
	os.MkdirAll(filepath.Dir(rp1), 0o755)
	os.WriteFile(rp1, []byte("# Project Charter: X\n**Status**: Draft\n\n## Vision\n_TBD_\n"), 0o644)
	out.Reset()
	if code := run([]string{"migrate", "--write", rp1}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "nothing to migrate") {
		t.Errorf("skeleton charter: exit %d, %q", code, out.String())
	}
}

// An rp1 scratch-pad charter is migrated in place: the dry run prints what
// it would do (the notes and a diff) and changes nothing; --write rewrites
// the file atomically in rp1's skeleton format, every answer in its region,
// Vision left _TBD_, the scratch pad gone; a second run finds nothing to do.
func TestMigrateRP1RoundTrip(t *testing.T) {
	project := t.TempDir()
	path := filepath.Join(project, ".rp1", "context", "charter.md")
	os.MkdirAll(filepath.Dir(path), 0o755)
	src := `# Project Charter: plantcare

**Version**: 1.0.0
**Status**: Draft
**Created**: 2026-11-18

## Scratch Pad

<!-- Interview state - will be removed upon completion -->
<!-- Mode: CREATE -->

### Q1: Target Users
**Asked**: Who are the primary users?
**Answer**: Renters in cities with 5-30 plants. Today they use phone alarms.

### Q2: Scope
**Asked**: What is in scope for v1?
**Answer**: Watering reminders per plant. We won't sell plants.

<!-- End scratch pad -->
`
	if err := os.WriteFile(path, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"migrate", path}, nil, &out, &errOut); code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"Q1 (Target Users) → Target Users", "Q2 (Scope) → Scope Guardrails / Will, Scope Guardrails / Won't", "**Version**: 1.0.0 is kept",
		"the scratch pad is removed: every answer is placed", "Vision stays _TBD_", "+## Vision", "-## Scratch Pad", "Nothing written"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dry run lacks %q:\n%s", want, out.String())
		}
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Fatal("the dry run changed the charter")
	}

	out.Reset()
	if code := run([]string{"migrate", "--write", path}, nil, &out, &errOut); code != 0 {
		t.Fatalf("--write: exit %d: %s", code, errOut.String())
	}
	b, _ := os.ReadFile(path)
	got := string(b)
	for _, want := range []string{"## Vision\n\n_TBD_", "## Target Users\n\nRenters in cities with 5-30 plants. Today they use phone alarms.",
		"### Will\n\n- Watering reminders per plant.", "### Won't\n\n- We won't sell plants.", "**Created**: 2026-11-18"} {
		if !strings.Contains(got, want) {
			t.Errorf("migrated charter lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Scratch Pad") {
		t.Errorf("scratch pad left:\n%s", got)
	}
	// The author's document version is theirs: kept, and the notes say
	// what it means beside the skeleton's regions.
	if !strings.Contains(got, "**Version**: 1.0.0\n") {
		t.Errorf("the **Version** line was dropped:\n%s", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("files left beside the charter: %v", entries)
	}
	// The result is what the check and the interview read as a skeleton.
	out.Reset()
	errOut.Reset()
	if code := run([]string{"interview", path}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"status":"draft"`) || !strings.Contains(out.String(), `"Vision"`) {
		t.Errorf("interview of the migrated charter: exit %d %s %s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := run([]string{"migrate", "--write", path}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "nothing to migrate") {
		t.Errorf("second run: exit %d %q", code, out.String())
	}
	if b2, _ := os.ReadFile(path); string(b2) != got {
		t.Error("the second run changed the charter")
	}
}

func TestStatusFindsChartersFolders(t *testing.T) {
	project := copyExampleCharters(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"status", project}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"1/3 pass", "phase 3 of 4", "Objective only (ADR-0018)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, out.String())
		}
	}
}

// A preview on a terminal shows a charter's escape sequences instead of
// obeying them; piped, it is byte for byte what patch applies.
func TestPreviewEscapesOnlyOnATerminal(t *testing.T) {
	diff := "-# Charter \x1b]0;pwned\x07\r\n+# Charter\r\n"
	if got := shown(false, diff); got != diff {
		t.Errorf("piped preview changed: %q", got)
	}
	if got, want := shown(true, diff), "-# Charter \\x1b]0;pwned\\x07\n+# Charter\n"; got != want {
		t.Errorf("terminal preview = %q, want %q", got, want)
	}
}
