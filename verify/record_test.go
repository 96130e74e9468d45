package verify

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/record"
)

var t0 = time.Date(2026, 11, 14, 9, 30, 0, 0, time.UTC)

func TestTailIsWhatASummaryQuotes(t *testing.T) {
	var out strings.Builder
	for i := range 30 {
		out.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	out.WriteString("\x1b[32mok\x1b[0m  \tparser\t0.3s\x07\n\x1b]0;title\x07done\r\n\n\n")
	r := &Result{Output: []byte(out.String())}
	tail := r.Tail()
	lines := strings.Split(tail, "\n")
	if len(lines) != 20 || lines[len(lines)-1] != "done" || lines[len(lines)-2] != "ok  \tparser\t0.3s" {
		t.Errorf("tail %q", tail)
	}
	if strings.ContainsAny(tail, "\x1b\x07\r") {
		t.Errorf("escape sequences left in %q", tail)
	}
	long := &Result{Output: []byte(strings.Repeat("é", 3000))}
	if got := long.Tail(); len(got) > tailBytes+len("…") || !strings.HasPrefix(got, "…é") {
		t.Errorf("a long line is cut at a character: %d bytes, %q…", len(got), got[:8])
	}
}

func TestSummaryAndDetails(t *testing.T) {
	r := &Result{Command: "go test ./...", ExitCode: 1, Duration: 1234 * time.Millisecond, Output: []byte("FAIL x\n")}
	if got := r.Summary(pi.Verification{}); got != "`go test ./...` exited 1 in 1.2s:\nFAIL x" {
		t.Errorf("summary %q", got)
	}
	w, _ := pi.Weakness("go test -run TestX ./...")
	weak := pi.Verification{Command: "go test -run TestX ./...", Key: "test", Weak: &w}
	if got := r.Summary(weak); !strings.HasPrefix(got, "Weak verifier, run after the user confirmed it: ") {
		t.Errorf("a weak run's summary should say so: %q", got)
	}
	d := r.Details(weak)
	if d["command"] != "go test ./..." || d["exitCode"] != 1 || d["durationMs"] != int64(1234) || d["commandKey"] != "test" || d["weakVerifier"] == nil {
		t.Errorf("details %v", d)
	}
	if got := (&Result{Command: "true"}).Summary(pi.Verification{}); got != "`true` exited 0 in 0s, printing nothing" {
		t.Errorf("summary %q", got)
	}
}

// TestPiEntryRecordsLikeRecord runs a VAL's command and records it through
// record.Record: a verifier row with the command's details, its output as
// an artifact in the run folder, and criterion-state.json updated.
func TestPiEntryRecordsLikeRecord(t *testing.T) {
	project, dir := piFixture(t)
	d := pi.LoadDir(vfs.OS, dir)
	c := d.Criteria.Lookup("VAL-SESS-001")
	v, err := c.Verification(d.Charter)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), "echo checked; exit 0", Options{Dir: project})
	if err != nil {
		t.Fatal(err)
	}
	r.Command = v.Command // as if the VAL's own command had printed this
	res, err := record.Record(context.Background(), dir, []record.Entry{r.PiEntry(c, v)}, record.Options{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	w := res.Entries[0]
	if w.Outcome != "pass" || len(w.Artifacts) != 1 || !strings.HasSuffix(w.Artifacts[0], "/output.log") || filepath.Dir(w.Artifacts[0]) != filepath.Dir(w.Path) {
		t.Fatalf("written %+v", w)
	}
	var row map[string]any
	raw, _ := os.ReadFile(filepath.Join(dir, w.Path))
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	details, _ := row["details"].(map[string]any)
	if row["source"] != "verifier" || row["recordedBy"] != "user" || row["featureId"] != "m1-sessions" ||
		details["command"] != "go test ./src/auth/..." || details["exitCode"] != 0.0 || details["durationMs"] == nil {
		t.Errorf("row %s", raw)
	}
	if arts, _ := row["artifacts"].([]any); len(arts) != 1 || arts[0] != w.Artifacts[0] {
		t.Errorf("artifacts %v, want %v", row["artifacts"], w.Artifacts)
	}
	log, err := os.ReadFile(filepath.Join(dir, w.Artifacts[0]))
	if err != nil || !strings.Contains(string(log), "# command: go test ./src/auth/...") || !strings.Contains(string(log), "\nchecked\n") {
		t.Errorf("artifact %q %v", log, err)
	}
	state, _ := os.ReadFile(filepath.Join(dir, "criterion-state.json"))
	if !strings.Contains(string(state), `"lastEvidencePath": "`+w.Path+`"`) {
		t.Errorf("criterion-state.json does not point at the run:\n%s", state)
	}
	// The evidence the run wrote reads back clean.
	d = pi.LoadDir(vfs.OS, dir)
	for _, run := range d.Runs {
		if run.RelPath == w.Path && (len(run.Problems) > 0 || len(run.Rows) != 1 || len(run.Rows[0].SchemaProblems()) > 0) {
			t.Errorf("the recorded run has problems: %+v", run)
		}
	}
}

func piFixture(t *testing.T) (project, dir string) {
	project = testfixture.Copy(t, "pi-project")
	return project, filepath.Join(project, ".pi", "charters", "auth-rework")
}

const fi15 = "## Objective\nShip it.\n## Criteria\n### C1. Parser streams\nCommand: go test ./parser\nStatus: pending\n### C2. Docs\nDepends: C1\n"

func TestChartersRecordWritesTheStatusLineAndTheArtifact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".charters", "20260101-000000-ship-it")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "charter.md")
	if err := os.WriteFile(p, []byte(fi15), 0o644); err != nil {
		t.Fatal(err)
	}
	c := charterfile.ParseFI15([]byte(fi15))
	v, err := c.Verification("C1")
	if err != nil || v.Command != "go test ./parser" {
		t.Fatalf("verification %+v %v", v, err)
	}
	r := &Result{Command: v.Command, Start: t0, Duration: 2 * time.Second, Output: []byte("ok  \tparser\t0.3s\n")}
	rel, err := ChartersArtifact(dir, "C1", r)
	if err != nil || rel != "work/verify/C1/2026-11-14T09-30-00-000Z/output.log" {
		t.Fatalf("artifact %q %v", rel, err)
	}
	again, err := ChartersArtifact(dir, "C1", r)
	if err != nil || again != "work/verify/C1/2026-11-14T09-30-00-000Z-1/output.log" {
		t.Errorf("a second run at the same time: %q %v", again, err)
	}
	fix, err := r.ChartersFix(c, "C1", v, rel)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCharter(dir, p, []byte(fi15), fix); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "Status: pass — `go test ./parser` exited 0 in 2s: ok parser 0.3s (output: " + rel + "; 2026-11-14)"
	if !strings.Contains(string(got), "\n"+want+"\n") {
		t.Errorf("charter.md:\n%s\nwant the line %q", got, want)
	}
	after := charterfile.ParseFI15(got)
	if cr := after.Criterion("C1"); cr.Status != "pass" || len(after.Warnings) != 1 { // C2's missing Status
		t.Errorf("status %s, warnings %+v", cr.Status, after.Warnings)
	}
	// The file changed since the fix was computed: nothing is written.
	if err := WriteCharter(dir, p, []byte(fi15), fix); err == nil || !strings.Contains(err.Error(), "changed while the command ran") {
		t.Errorf("stale write: %v", err)
	}
}

func TestChartersArtifactStaysInTheFolder(t *testing.T) {
	outside := t.TempDir()
	dir := filepath.Join(t.TempDir(), "20260101-000000-x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "work")); err != nil {
		t.Skip(err)
	}
	r := &Result{Command: "true", Start: t0}
	if _, err := ChartersArtifact(dir, "C1", r); err == nil {
		t.Fatal("wrote through a link out of the charter folder")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written outside: %v", entries)
	}
}
