package migrate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

var now = time.Date(2026, 11, 23, 18, 5, 9, 0, time.UTC)

func chartersDir(t *testing.T, files map[string]string) *charterfile.Dir {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".charters", "20260702-101500-sync")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return charterfile.LoadDir(vfs.OS, dir)
}

func file(p *Plan, name string) string {
	for _, f := range p.Files {
		if f.Name == name {
			return string(f.Content)
		}
	}
	return ""
}

// roundTrip reads the plan's files back as upstream would: the new
// charter's reading, its diagnostics, its state.
func roundTrip(t *testing.T, p *Plan) (*charterfile.Charter, []diag.Diagnostic, *charterfile.State) {
	t.Helper()
	text := []byte(file(p, charterfile.CharterFile))
	st := charterfile.ParseState([]byte(file(p, charterfile.StateFile)))
	c, era := charterfile.Read(charterfile.Evidence{Text: text, State: st, Events: charterfile.ParseEvents(nil)})
	if era.Generation != charterfile.OBJ || era.Mismatch || len(era.Conflicts) > 0 {
		t.Fatalf("the new charter reads as %s (%v), want objective:\n%s", era.Generation, era, text)
	}
	if !st.Valid || st.SchemaVersion != "phases" || st.Status != "active" || st.CharterID != p.ID {
		t.Fatalf("new state.json: %+v\n%s", st, file(p, charterfile.StateFile))
	}
	if !charterfile.ValidID(p.ID) || file(p, charterfile.EventsFile) != "" {
		t.Fatalf("id %q, events %q", p.ID, file(p, charterfile.EventsFile))
	}
	var ds []diag.Diagnostic
	for _, d := range charterfile.CheckCharter(c) {
		if d.Severity <= diag.SeverityWarning {
			ds = append(ds, d)
		}
	}
	return c, ds, st
}

const fi15Charter = `# Charter: Offline sync

## Objective

Local edits survive a restart and merge without loss.

## References

- ` + "`docs/sync/DESIGN.md`" + `

## Scope

Note bodies and titles only.

## Criteria

## Storage
### C1. Edits survive a restart
Edits are on disk before the app calls them saved.
Status: pass — kill -9 while typing, 30/30 restored

### C2. Concurrent edits merge
Two devices converge.

` + "```sh" + `
make prop
` + "```" + `
Depends: C1
Status: in-progress — 2 failures left
Status: pass — an older line upstream ignores

### C2. A second C2 upstream ignores
Status: pending
`

func TestFromFileInterface(t *testing.T) {
	d := chartersDir(t, map[string]string{
		"charter.md": fi15Charter,
		"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"file-interface","objective":"Offline sync for notes","status":"active"}`,
	})
	p, err := FromCharters(d, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "20261123-180509-offline-sync-for-notes" || p.Root != filepath.Dir(d.Path) {
		t.Errorf("new charter %s in %s", p.ID, p.Root)
	}
	c, ds, st := roundTrip(t, p)
	if len(ds) > 0 {
		t.Errorf("the migrated charter has findings: %v\n%s", ds, file(p, "charter.md"))
	}
	if st.Objective != "Offline sync for notes" || st.CreatedAt != "2026-11-23T18:05:09.000Z" {
		t.Errorf("state objective %q createdAt %q", st.Objective, st.CreatedAt)
	}
	for _, want := range []string{
		"Local edits survive a restart and merge without loss.",
		"## Acceptance",
		"- C1 Edits survive a restart — Edits are on disk before the app calls them saved.",
		"- C2 Concurrent edits merge (after C1)",
		"  ```sh\n  make prop\n  ```", // a fence, indented into the list item
		"Status: pass — an older line upstream ignores",
	} {
		if !strings.Contains(c.Objective.Text, want) {
			t.Errorf("Objective lacks %q:\n%s", want, c.Objective.Text)
		}
	}
	if !strings.Contains(c.References.Text, "docs/sync/DESIGN.md") || !strings.Contains(c.References.Text, "`.charters/20260702-101500-sync/`") {
		t.Errorf("references: %q", c.References.Text)
	}
	if c.Scope.Text != "Note bodies and titles only." {
		t.Errorf("scope: %q", c.Scope.Text)
	}
	for _, want := range []string{
		"- [x] C1 — pass — kill -9 while typing, 30/30 restored",
		"- [ ] C2 — in-progress — 2 failures left",
		"> # Charter: Offline sync", // the title, quoted
		"> ## Storage",
		"> ### C2. A second C2 upstream ignores",
	} {
		if !strings.Contains(c.Notes, want) {
			t.Errorf("Notes lack %q:\n%s", want, c.Notes)
		}
	}
}

func TestFromFI14(t *testing.T) {
	d := chartersDir(t, map[string]string{
		"charter.md": "## Objective\nRetire the v1 API.\n## Scope\nPublic endpoints.\n## Criteria\n### C1. Clients moved\nEvidence: fail - 3 clients left\nacme, globex, initech\n### C2. v1 returns 410\nEvidence: none\nDepends: C1\n",
		"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"file-interface","objective":"Retire v1","status":"completed"}`,
	})
	p, err := FromCharters(d, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	c, ds, _ := roundTrip(t, p)
	if len(ds) > 0 || strings.Contains(file(p, "charter.md"), "\r") {
		t.Errorf("findings %v, or CRs left:\n%q", ds, file(p, "charter.md"))
	}
	if c.Scope.Text != "Public endpoints." {
		t.Errorf("ADR-0014's unread Scope should carry over: %q", c.Scope.Text)
	}
	// The multi-line Evidence note, and the Depends line it swallowed.
	for _, want := range []string{"- [ ] C1 — fail — 3 clients left\n  acme, globex, initech", "- [ ] C2 — none — Depends: C1"} {
		if !strings.Contains(c.Notes, want) {
			t.Errorf("Notes lack %q:\n%s", want, c.Notes)
		}
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "completed; the new one starts active") {
		t.Errorf("plan notes: %q", p.Notes)
	}
}

// TestFromCRLF: upstream reads no Evidence line with a value in a CRLF
// file, so the migration carries "none", and the lines as body text.
func TestFromCRLF(t *testing.T) {
	d := chartersDir(t, map[string]string{
		"charter.md": "## Objective\r\nRetire the v1 API.\r\n## Criteria\r\n### C1. Clients moved\r\nEvidence: fail - 3 clients left\r\n",
		"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"file-interface","objective":"Retire v1","status":"active"}`,
	})
	p, err := FromCharters(d, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	c, _, _ := roundTrip(t, p)
	if strings.Contains(file(p, "charter.md"), "\r") || !strings.Contains(c.Objective.Text, "- C1 Clients moved — Evidence: fail - 3 clients left") || !strings.Contains(c.Notes, "- [ ] C1 — none") {
		t.Errorf("CRLF migration:\n%s", file(p, "charter.md"))
	}
}

func TestCorpusRoundTrips(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "analysis", "charterfile", "testdata", "corpus", "fi1*", "*.txt"))
	if len(files) < 5 {
		t.Fatalf("corpus: %v", files)
	}
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		_, rest, _ := strings.Cut(string(raw), "-- charter.md")
		header, body, _ := strings.Cut(rest, "--\n")
		body, _, _ = strings.Cut(body, "\n-- ")
		if strings.Contains(header, "crlf") {
			body = strings.ReplaceAll(body, "\n", "\r\n")
		}
		d := chartersDir(t, map[string]string{"charter.md": body + "\n",
			"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"file-interface","objective":"","status":"active"}`})
		p, err := FromCharters(d, Options{Now: now})
		if err != nil {
			if strings.Contains(f, "fences") && strings.Contains(err.Error(), "refused") {
				continue // see TestRefusesLoss
			}
			t.Errorf("%s: %v", f, err)
			continue
		}
		c, ds, _ := roundTrip(t, p)
		if len(ds) > 0 {
			t.Errorf("%s: the migrated charter has findings %v:\n%s", f, ds, file(p, "charter.md"))
		}
		for _, cr := range d.Charter.Criteria {
			if !strings.Contains(c.Objective.Text, cr.ID+" "+strings.Join(strings.Fields(cr.Title), " ")) {
				t.Errorf("%s: %s's title is lost", f, cr.ID)
			}
		}
	}
}

func TestRefusesLoss(t *testing.T) {
	// A "# comment" inside a fence in the Objective would end the new
	// Objective: the migration is refused, nothing planned.
	d := chartersDir(t, map[string]string{
		"charter.md": "## Objective\nRun this:\n```sh\n# restore\n./restore.sh\n```\nand check the rows.\n## Criteria\n### C1. Restored\nStatus: pending\n",
		"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"file-interface","objective":"Restore","status":"active"}`,
	})
	if _, err := FromCharters(d, Options{Now: now}); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	// Near miss: the same heading outside a fence is demoted and kept.
	d = chartersDir(t, map[string]string{
		"charter.md": "## Objective\nRun this.\n# Restore\nand check the rows.\n## Criteria\n### C1. Restored\nStatus: pending\n",
		"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"file-interface","objective":"Restore","status":"active"}`,
	})
	p, err := FromCharters(d, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if c, _, _ := roundTrip(t, p); !strings.Contains(c.Objective.Text, "### Restore\nand check the rows.") {
		t.Errorf("objective: %q", c.Objective.Text)
	}
}

func TestNothingToDoAndIDs(t *testing.T) {
	for _, charter := range []string{"# Objective\nShip it.\n## Phases\n1. A — done\n", "# Objective\nShip it.\n"} {
		d := chartersDir(t, map[string]string{"charter.md": charter,
			"state.json": `{"charterId":"20260702-101500-sync","schemaVersion":"phases","objective":"Ship it","status":"active"}`})
		if _, err := FromCharters(d, Options{Now: now}); !errors.Is(err, ErrNothingToDo) {
			t.Errorf("%q: err = %v, want ErrNothingToDo", charter, err)
		}
	}
	d := chartersDir(t, map[string]string{"charter.md": "## Objective\nShip it!\n## Criteria\n"})
	taken := map[string]bool{"20261123-180509-ship-it": true, "20261123-180509-ship-it-2": true}
	p, err := FromCharters(d, Options{Now: now, Taken: func(n string) bool { return taken[n] }})
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "20261123-180509-ship-it-3" {
		t.Errorf("id %q, want the first free suffix -3", p.ID)
	}
}

func TestFromV3(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	d := pi.LoadDir(vfs.OS, charter)
	p, err := FromV3(d, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if p.Root != filepath.Join(project, ".charters") {
		t.Errorf("root %s", p.Root)
	}
	c, ds, _ := roundTrip(t, p)
	if len(ds) > 0 {
		t.Errorf("findings %v:\n%s", ds, file(p, "charter.md"))
	}
	latest := pi.LatestResults(d)
	for _, cr := range d.Criteria.Criteria {
		if !strings.Contains(c.Objective.Text, cr.ID+" "+cr.Title) {
			t.Errorf("%s is not in the Acceptance list:\n%s", cr.ID, c.Objective.Text)
		}
		want := cr.ID + " — no evidence"
		if o, ok := latest[cr.ID]; ok {
			want = cr.ID + " — " + string(o.Outcome) + " — " + o.Summary
		}
		if !strings.Contains(c.Notes, want) {
			t.Errorf("notes lack %q:\n%s", want, c.Notes)
		}
	}
	for _, m := range d.Criteria.Milestones {
		if !strings.Contains(c.Objective.Text, "### "+m.Title) {
			t.Errorf("milestone %q lost", m.Title)
		}
	}
	for _, dv := range d.Criteria.Dropped {
		if !strings.Contains(c.Notes, "> "+dv.Text) && !strings.Contains(c.Notes, dv.Text) {
			t.Errorf("dropped VAL %q lost:\n%s", dv.Text, c.Notes)
		}
	}
	if len(d.Criteria.Dropped) == 0 {
		t.Error("the fixture's lower-case VAL id should be dropped by upstream")
	}
	if !strings.Contains(c.References.Text, ".pi/charters/"+d.ID+"/") {
		t.Errorf("references: %q", c.References.Text)
	}
}

// A level-1 heading in a section becomes level 3 unless it is in fenced
// code, as CommonMark reads fences (codefence): a ```` block is not closed
// by ```, and a line indented four spaces opens none.
func TestSafeSectionFences(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# a\n```\n# b\n```\n# c", "### a\n```\n# b\n```\n### c"},
		{"````\n```\n# inside\n````\n# after", "````\n```\n# inside\n````\n### after"},
		{"~~~\n# inside\n```\n# still inside", "~~~\n# inside\n```\n# still inside"},
		{"    ```\n# text", "    ```\n### text"},
	} {
		if got := safeSection(c.in); got != c.want {
			t.Errorf("safeSection(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
