package record

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/status"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// fixture returns a fresh copy of the pi-project and its charter directory.
func fixture(t testing.TB) (project, charter string) {
	project = testfixture.Copy(t, "pi-project")
	return project, filepath.Join(project, ".pi", "charters", "auth-rework")
}

// snapshot maps every path under root to its content ("<dir>" for folders).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel] = "<dir>"
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}

var t0 = time.Date(2026, 11, 14, 9, 30, 0, 0, time.UTC)

func TestStamp(t *testing.T) {
	if got := Stamp(time.Date(2026, 5, 15, 3, 0, 0, 0, time.UTC)); got != "2026-05-15T03-00-00-000Z" {
		t.Errorf("Stamp = %s", got)
	}
	if got := ISOTime(time.Date(2026, 5, 15, 5, 0, 0, 7e6, time.FixedZone("x", 2*3600))); got != "2026-05-15T03:00:00.007Z" {
		t.Errorf("ISOTime = %s", got)
	}
}

func TestRecordThenStatus(t *testing.T) {
	_, dir := fixture(t)
	before := snapshot(t, dir)
	res, err := Record(context.Background(), dir, []Entry{
		{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "bun test tests/auth.test.ts: 3 pass", Source: "verifier",
			Details: map[string]any{"command": "bun test tests/auth.test.ts", "exitCode": 0}},
		{CriterionID: "VAL-SESS-003", Outcome: "partial", Summary: "refresh works, rotation missing", Because: "tried it by hand", RecordedBy: "user", FeatureID: "m1-sessions"},
	}, Options{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"work/_charter/evidence/2026-11-14T09-30-00-000Z/evidence.json",
		"work/m1-sessions/evidence/2026-11-14T09-30-00-000Z/evidence.json",
	}
	for i, w := range res.Entries {
		if w.Path != want[i] {
			t.Errorf("entry %d written to %s, want %s", i, w.Path, want[i])
		}
	}
	// charter.md and criteria.md untouched; every written row passes pi's schema.
	after := snapshot(t, dir)
	for _, name := range []string{"charter.md", "criteria.md", "state.json", "REPORT.md"} {
		if before[name] != after[name] {
			t.Errorf("%s changed", name)
		}
	}
	d := pi.LoadDir(vfs.OS, dir)
	rows := 0
	for _, run := range d.Runs {
		if !strings.Contains(run.Stamp, "2026-11-14") {
			continue
		}
		if len(run.Problems) > 0 {
			t.Errorf("%s: %v", run.RelPath, run.Problems)
		}
		for i := range run.Rows {
			rows++
			if ps := run.Rows[i].SchemaProblems(); len(ps) > 0 {
				t.Errorf("%s: %v", run.RelPath, ps)
			}
		}
	}
	if rows != 2 {
		t.Errorf("wrote %d rows, want 2", rows)
	}
	if ps := d.CriterionStateProblems; len(ps) > 0 {
		t.Errorf("criterion-state.json: %v", ps)
	}
	if got := d.CriterionState.LastToolWriteAt; got != "2026-11-14T09:30:00.000Z" {
		t.Errorf("lastToolWriteAt = %s", got)
	}
	if e := d.CriterionState.Entry("VAL-SESS-001"); e == nil || e.Outcome != "pass" {
		t.Errorf("VAL-SESS-001's record was lost: %+v", e)
	}

	st, err := workspace.NewSession(workspace.Options{}).Snapshot().Status(context.Background(), dir, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range st.Criteria {
		got[v.CriterionID] = string(v.Outcome) + " " + v.LastEvidencePath
	}
	for id, w := range map[string]string{
		"VAL-SESS-002": "pass " + want[0],
		"VAL-SESS-003": "partial " + want[1],
	} {
		if got[id] != w {
			t.Errorf("status %s = %q, want %q", id, got[id], w)
		}
	}
	if st.Drift.ReadyNext[0].CriterionID != "VAL-SESS-003" {
		t.Errorf("readyNext = %+v, want VAL-SESS-003", st.Drift.ReadyNext)
	}
}

func TestStampCollisionSuffix(t *testing.T) {
	_, dir := fixture(t)
	var paths []string
	for i := 0; i < 3; i++ {
		res, err := Record(context.Background(), dir, []Entry{{CriterionID: "VAL-ROLL-003", Outcome: "fail", Summary: "drill failed", Source: "verifier"}}, Options{Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, res.Entries[0].Path)
	}
	want := []string{"2026-11-14T09-30-00-000Z", "2026-11-14T09-30-00-000Z-1", "2026-11-14T09-30-00-000Z-2"}
	for i, p := range paths {
		if p != "work/_charter/evidence/"+want[i]+"/evidence.json" {
			t.Errorf("run %d at %s, want stamp %s", i, p, want[i])
		}
	}
}

func TestPlanRefuses(t *testing.T) {
	_, dir := fixture(t)
	ok := Entry{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Because: "b"}
	tests := []struct {
		name  string
		edit  func(*Entry)
		error string
	}{
		{"unknown id with near match", func(e *Entry) { e.CriterionID = "VAL-SES-002" }, "did you mean VAL-SESS-002"},
		{"lower-case id upstream drops", func(e *Entry) { e.CriterionID = "VAL-roll-002" }, "unknown criterion"},
		{"manual without because", func(e *Entry) { e.Because = "  " }, "needs a non-empty because"},
		{"bad outcome", func(e *Entry) { e.Outcome = "ok" }, "must be pass, fail or partial"},
		{"empty summary", func(e *Entry) { e.Summary = " " }, "summary is required"},
		{"bad source", func(e *Entry) { e.Source = "hook" }, "must be manual, verifier or subagent"},
		{"bad recordedBy", func(e *Entry) { e.RecordedBy = "root" }, "recordedBy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := ok
			tt.edit(&e)
			_, err := Plan(vfs.OS, dir, []Entry{e}, Options{Now: t0})
			if err == nil || !strings.Contains(err.Error(), tt.error) {
				t.Fatalf("err = %v, want %q", err, tt.error)
			}
		})
	}
	// A paused charter takes no evidence.
	os.WriteFile(filepath.Join(dir, "state.json"), []byte(`{"charterId":"auth-rework","status":"paused"}`), 0o644)
	if _, err := Plan(vfs.OS, dir, []Entry{ok}, Options{Now: t0}); err == nil || !strings.Contains(err.Error(), "paused") {
		t.Fatalf("paused charter: err = %v", err)
	}
}

// TestPathSafety: whatever the ids and summary hold, nothing is written
// outside the charter directory; bad ids are refused, odd summaries stored.
func TestPathSafety(t *testing.T) {
	long := strings.Repeat("a/../", 2000)
	tests := []struct {
		name    string
		entry   Entry
		refused bool
	}{
		{"feature ../", Entry{FeatureID: "../../../escape"}, true},
		{"feature absolute", Entry{FeatureID: "/tmp/escape"}, true},
		{"feature NUL", Entry{FeatureID: "m1\x00x"}, true},
		{"feature dot-dot", Entry{FeatureID: ".."}, true},
		{"feature long", Entry{FeatureID: strings.Repeat("m", 10000)}, true},
		{"VAL ../", Entry{CriterionID: "../../VAL-SESS-002"}, true},
		{"VAL absolute", Entry{CriterionID: "/etc/passwd"}, true},
		{"VAL NUL", Entry{CriterionID: "VAL-SESS-002\x00"}, true},
		{"VAL long", Entry{CriterionID: long}, true},
		{"summary ../ absolute NUL long", Entry{Summary: "../../x /etc/passwd \x00 " + long}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, dir := fixture(t)
			outside := filepath.Dir(project)
			e := Entry{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "ok", Source: "verifier"}
			if tt.entry.CriterionID != "" {
				e.CriterionID = tt.entry.CriterionID
			}
			if tt.entry.FeatureID != "" {
				e.FeatureID = tt.entry.FeatureID
			}
			if tt.entry.Summary != "" {
				e.Summary = tt.entry.Summary
			}
			before := snapshot(t, outside)
			_, err := Record(context.Background(), dir, []Entry{e}, Options{Now: t0})
			if tt.refused != (err != nil) {
				t.Fatalf("refused = %v, want %v", err, tt.refused)
			}
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("error message is %d bytes long", len(err.Error()))
			}
			after := snapshot(t, outside)
			rel, _ := filepath.Rel(outside, dir)
			for p := range after {
				if _, existed := before[p]; !existed && !strings.HasPrefix(p, rel+string(filepath.Separator)) {
					t.Errorf("wrote %s outside the charter directory", p)
				}
			}
			if tt.refused && len(after) != len(before) {
				t.Errorf("a refused entry still wrote %d paths", len(after)-len(before))
			}
		})
	}
}

func TestSymlinkedWorkRefused(t *testing.T) {
	_, dir := fixture(t)
	elsewhere := t.TempDir()
	os.RemoveAll(filepath.Join(dir, "work"))
	if err := os.Symlink(elsewhere, filepath.Join(dir, "work")); err != nil {
		t.Skip("no symlinks:", err)
	}
	_, err := Record(context.Background(), dir, []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier"}}, Options{Now: t0})
	if err == nil || !strings.Contains(err.Error(), "work is a symbolic link to "+elsewhere) {
		t.Fatalf("err = %v", err)
	}
	if es, _ := os.ReadDir(elsewhere); len(es) != 0 {
		t.Errorf("wrote through the symlink: %v", es)
	}
}

func TestFailureHalfWayKeepsCriterionState(t *testing.T) {
	_, dir := fixture(t)
	statePath := filepath.Join(dir, "criterion-state.json")
	old, _ := os.ReadFile(statePath)
	before := snapshot(t, dir)
	writeState = func(atomicfile.Dir, string, []byte, os.FileMode) error { return errors.New("disk full") }
	defer func() { writeState = defaultWriteState }()
	_, err := Record(context.Background(), dir, []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier", FeatureID: "m2-rollout"}}, Options{Now: t0}) // no work/m2-rollout/ yet
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(statePath); string(got) != string(old) {
		t.Error("criterion-state.json changed")
	}
	after := snapshot(t, dir)
	if len(after) != len(before) {
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("left behind %s", p)
			}
		}
	}
}

func TestFailureOnRealDiskKeepsCriterionState(t *testing.T) {
	// criterion-state.json replaced by a folder: the rename fails for real.
	_, dir := fixture(t)
	statePath := filepath.Join(dir, "criterion-state.json")
	res, err := Plan(vfs.OS, dir, []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier"}}, Options{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	res.entries = nil // apply the planned ops as they are
	os.Remove(statePath)
	os.Mkdir(statePath, 0o755)
	os.WriteFile(filepath.Join(statePath, "keep"), []byte("x"), 0o644)
	if err := Apply(context.Background(), res); err == nil {
		t.Fatal("Apply succeeded over a folder")
	}
	if _, err := os.Stat(filepath.Join(dir, "work", "_charter", "evidence", Stamp(t0))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the new run directory was left behind: %v", err)
	}
}

// TestConcurrentProcesses runs 8 record processes at once on one charter.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	_, dir := fixture(t)
	ids := []string{"VAL-SESS-001", "VAL-SESS-002", "VAL-SESS-003", "VAL-SESS-004", "VAL-ROLL-001", "VAL-ROLL-003", "VAL-SESS-002", "VAL-ROLL-003"}
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The same --now for all: every process collides on the stamp.
			cmd := exec.Command(bin, "record", id, "--outcome", "pass", "--summary", fmt.Sprintf("run %d", i),
				"--because", "parallel test", "--charter", dir, "--now", "2026-11-14T09:30:00Z")
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	d := pi.LoadDir(vfs.OS, dir)
	summaries := map[string]string{} // run summary -> VAL
	for _, run := range d.Runs {
		for _, r := range run.Rows {
			if strings.HasPrefix(r.Summary, "run ") {
				summaries[r.Summary] = r.CriterionID
			}
		}
	}
	if len(summaries) != len(ids) {
		t.Fatalf("%d rows written, want %d: %v", len(summaries), len(ids), summaries)
	}
	// criterion-state.json holds every VAL with one of its own runs.
	for i, id := range ids {
		e := d.CriterionState.Entry(id)
		if e == nil || e.Outcome != "pass" || summaries[e.LastSummary] != id {
			t.Errorf("run %d: criterion-state entry for %s = %+v", i, id, e)
		}
	}
}

// charter_status reports a sidecar whose mtime is later than its
// lastToolWriteAt as edited by hand; our own write must not read so, while
// a later hand edit still does.
func TestOwnWriteIsNotSidecarDrift(t *testing.T) {
	_, dir := fixture(t)
	// Recorded "now": the file's mtime would otherwise be later than the
	// lastToolWriteAt the record writes.
	now := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	if _, err := Record(context.Background(), dir, []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "401 now", Because: "curl", Source: "manual", RecordedBy: "user"}}, Options{Now: now}); err != nil {
		t.Fatal(err)
	}
	drift := func() []status.SidecarDrift {
		st, err := workspace.NewSession(workspace.Options{}).Snapshot().Status(context.Background(), dir, now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		var out []status.SidecarDrift
		for _, d := range st.Drift.SidecarDrift {
			if d.Path == "criterion-state.json" {
				out = append(out, d)
			}
		}
		return out
	}
	if d := drift(); len(d) != 0 {
		t.Fatalf("our own write reads as a hand edit: %+v", d)
	}
	p := filepath.Join(dir, "criterion-state.json")
	later := now.Add(30 * time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if d := drift(); len(d) != 0 {
		t.Fatalf("a later file time alone (a git checkout) reads as a hand edit: %+v", d)
	}
	// A hand edit: the entry no longer says what its evidence row says.
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"lastSummary": "401 now"`, `"lastSummary": "all good"`, 1)), 0o644)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if d := drift(); len(d) != 1 {
		t.Fatalf("a later edit must show as sidecar drift, got %+v", d)
	}
}

// A record leaves exactly its new run and the updated criterion-state.json
// in the charter folder: no lock file, no temporary file.
func TestRecordLeavesNothingElse(t *testing.T) {
	_, dir := fixture(t)
	before := snapshot(t, dir)
	res, err := Record(context.Background(), dir, []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier"}}, Options{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.FromSlash(res.Entries[0].Path)
	for p := range snapshot(t, dir) {
		if _, old := before[p]; old || p == run || strings.HasPrefix(run, p+string(filepath.Separator)) {
			continue
		}
		t.Errorf("left behind: %s", p)
	}
}

// A charter folder that is a link out of its project is refused before
// anything is written; a link that stays in the project is fine.
func TestCharterLinkedOutOfTheProjectRefused(t *testing.T) {
	project, dir := fixture(t)
	outside := filepath.Join(t.TempDir(), "auth-rework")
	if err := os.Rename(dir, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, dir); err != nil {
		t.Skip("no symlinks:", err)
	}
	before := snapshot(t, outside)
	entry := []Entry{{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "s", Source: "verifier"}}
	_, err := Record(context.Background(), dir, entry, Options{Now: t0})
	if err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Fatalf("err = %v", err)
	}
	if after := snapshot(t, outside); len(after) != len(before) {
		t.Errorf("wrote through the link: %d files, was %d", len(after), len(before))
	}
	// Near miss: linked to a folder inside the project.
	inside := filepath.Join(project, "charters-elsewhere", "auth-rework")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	os.Remove(dir)
	os.Rename(outside, inside)
	os.Symlink(inside, dir)
	if _, err := Record(context.Background(), dir, entry, Options{Now: t0}); err != nil {
		t.Fatalf("a link inside the project: %v", err)
	}
}

// A record waiting for another writer's lock stops when its context ends,
// writing nothing (an editor's cancelled request, a CLI's Ctrl-C).
func TestApplyStopsWaitingWhenCancelled(t *testing.T) {
	_, dir := testfixture.PiProject(t)
	entry := Entry{CriterionID: "VAL-SESS-002", Outcome: "pass", Summary: "ok", Source: "verifier"}
	res, err := Plan(vfs.OS, dir, []Entry{entry}, Options{Now: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := lockDir(context.Background(), dir) // another writer holds the folder
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := Apply(ctx, res); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Apply under a held lock = %v, want the context's deadline", err)
	}
	if waited := time.Since(start); waited > testfixture.Timeout(2*time.Second) {
		t.Errorf("Apply stopped %v after its context ended", waited)
	}
	if _, err := os.Stat(res.Ops[0].Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the evidence file was written: %v", err)
	}
}
