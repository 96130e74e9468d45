package status_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/status"
)

func sidecarDrift(t *testing.T, charter string) []status.SidecarDrift {
	t.Helper()
	st, err := statusOf(t, vfs.OS, charter, mustTime(t, "2026-11-13T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	return st.Drift.SidecarDrift
}

func edit(t *testing.T, path, old, new string, at time.Time) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q (%v)", path, old, err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
	testfixture.Touch(t, path, at)
}

// A sidecar whose file time is later than its lastToolWriteAt (as after a
// git checkout) is edited by hand only if its content says so: an entry of
// criterion-state.json that disagrees with the evidence row it records.
func TestSidecarDriftFromContent(t *testing.T) {
	_, charter := testfixture.PiProject(t) // criterion-state.json's time is a day after its lastToolWriteAt
	if d := sidecarDrift(t, charter); len(d) != 0 {
		t.Fatalf("unchanged content read as a hand edit: %+v", d)
	}
	for _, tc := range []struct{ name, old, new, reason string }{
		{"outcome", `"outcome": "fail"`, `"outcome": "pass"`, `VAL-SESS-002: outcome "pass", but its evidence row says "fail"`},
		{"summary", `"lastSummary": "review of migration window logic"`, `"lastSummary": "looks fine"`, `VAL-ROLL-001: lastSummary "looks fine", but its evidence row says "review of migration window logic"`},
		{"time", `"lastTs": "2026-11-10T08:00:00.000Z"`, `"lastTs": "2026-11-10T09:00:00.000Z"`, "VAL-SESS-002: lastTs 2026-11-10T09:00:00.000Z matches no row of work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json"},
		{"evidence path", `"lastEvidencePath": "work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json"`, `"lastEvidencePath": "work/_charter/evidence/x/evidence.json"`, `VAL-SESS-002: lastEvidencePath "work/_charter/evidence/x/evidence.json" names no evidence run`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, charter := testfixture.PiProject(t)
			state := filepath.Join(charter, "criterion-state.json")
			edit(t, state, tc.old, tc.new, testfixture.StateEdited)
			d := sidecarDrift(t, charter)
			if len(d) != 1 || d[0].Path != "criterion-state.json" || d[0].Reason != tc.reason || d[0].LastToolWriteAt != "2026-11-12T16:30:00.000Z" {
				t.Fatalf("got %+v, want the reason %q", d, tc.reason)
			}
			// The same edit with the file time at the tool's write is
			// not drift: upstream's rule needs a later time first.
			testfixture.Touch(t, state, testfixture.ToolWrite)
			if d := sidecarDrift(t, charter); len(d) != 0 {
				t.Errorf("no later file time, yet %+v", d)
			}
		})
	}
	// No evidence to compare with, no git: upstream's rule, the time alone.
	os.RemoveAll(filepath.Join(charter, "work"))
	d := sidecarDrift(t, charter)
	if len(d) != 1 || d[0].Reason != "modified after the tool's last write" {
		t.Errorf("without evidence: %+v", d)
	}
}

// state.json records nothing to compare with; git does: a tracked file
// unchanged since the last commit holds what was committed, whatever its
// time says, and one changed since is edited.
func TestSidecarDriftAsksGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	project, charter := testfixture.PiProject(t)
	state := filepath.Join(charter, "state.json")
	edit(t, state, `"updatedAt": "2026-11-12T16:30:00.000Z"`, `"updatedAt": "2026-11-12T16:30:00.000Z",
  "lastToolWriteAt": "2026-11-12T16:30:00.000Z"`, testfixture.ToolWrite)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = project
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "charter")
	stateDrift := func() []status.SidecarDrift {
		var out []status.SidecarDrift
		for _, d := range sidecarDrift(t, charter) {
			if d.Path == "state.json" {
				out = append(out, d)
			}
		}
		return out
	}
	testfixture.Touch(t, state, testfixture.StateEdited) // as a checkout sets it
	if d := stateDrift(); len(d) != 0 {
		t.Fatalf("a committed, unchanged state.json read as a hand edit: %+v", d)
	}
	edit(t, state, `"status": "active"`, `"status": "paused"`, testfixture.StateEdited)
	if d := stateDrift(); len(d) != 1 || d[0].Reason != "changed since the last commit, after the tool's last write" {
		t.Fatalf("an edit after the commit: %+v", d)
	}
	// Untracked: git cannot tell, so the time decides, as upstream.
	git("rm", "-q", "--cached", filepath.Join(".pi", "charters", "auth-rework", "state.json"))
	if d := stateDrift(); len(d) != 1 || d[0].Reason != "modified after the tool's last write" {
		t.Fatalf("untracked: %+v", d)
	}
}

// Every next action says how to take the step with charter-lsp, where
// charter-lsp can: the command line to run in the project folder and the
// editor action; upstream's tool name stays.
func TestNextActionsNameTheCharterLSPWay(t *testing.T) {
	_, charter := testfixture.PiProject(t)
	actions := func() map[string]status.NextAction {
		st, err := statusOf(t, vfs.OS, charter, mustTime(t, "2026-11-13T12:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]status.NextAction{}
		for _, a := range st.NextActions {
			out[strings.TrimSpace(a.Tool+" "+a.Action)] = a
		}
		return out
	}
	a := actions()
	// The next VAL is verified by a command: running it records it.
	if r := a["charter_record evidence"]; !strings.HasPrefix(r.CLI, "charter-lsp verify VAL-") || !strings.Contains(r.Editor, "▶ Run `") {
		t.Errorf("record: %+v", r)
	}
	if p := a["charter pause"]; p.CLI != "" || p.Editor != "" {
		t.Errorf("pausing is upstream's only, yet %+v", p)
	}
	edit(t, filepath.Join(charter, "state.json"), `"status": "active"`, `"status": "paused"`, testfixture.ToolWrite)
	a = actions()
	if s := a["charter_status"]; s.CLI != "charter-lsp status .pi/charters/auth-rework" || !strings.Contains(s.Editor, "Charter: Show status") {
		t.Errorf("paused: %+v", a)
	}
	edit(t, filepath.Join(charter, "state.json"), `"status": "paused"`, `"status": "active"`, testfixture.ToolWrite)
	os.WriteFile(filepath.Join(charter, "criteria.md"), []byte("# Criteria\n"), 0o644)
	if e := actions()["edit"]; e.CLI != "charter-lsp check .pi/charters/auth-rework/criteria.md" || e.Metadata["path"] != "criteria.md" {
		t.Errorf("empty register: %+v", e)
	}
}

// Staleness is a block's own: where an id repeats and only the later block
// needs fresh evidence, upstream's drift (each parsed criterion judged on its
// own flag) lists one stale entry, for the later block; the first block, the
// one upstream reads for the id, is not stale.
func TestStaleIsEachBlocksOwn(t *testing.T) {
	project := t.TempDir()
	charter := filepath.Join(project, ".pi", "charters", "twice")
	testfixture.WriteFiles(t, project, map[string]string{
		"src/a.go": "package a\n",
		".pi/charters/twice/state.json": `{"charterId": "twice", "schemaVersion": "v2", "name": "Twice", "objective": "o", "status": "active",
  "createdAt": "2026-11-09T12:00:00.000Z", "updatedAt": "2026-11-09T12:00:00.000Z"}`,
		".pi/charters/twice/criteria.md": "# Criteria\n\n## m1 First\n\n" +
			"### VAL-T-001 — Read\nVerifier: command\nCommand: go test ./...\n\n" +
			"## m2 Second\n\n" +
			"### VAL-T-001 — Never read\nVerifier: command\nCommand: go test ./...\nFresh evidence required: true\n",
		".pi/charters/twice/criterion-state.json": `{"charterId": "twice", "criteria": {"VAL-T-001": {"outcome": "pass", "lastTs": "2026-11-10T08:00:00.000Z",
  "lastSummary": "ok", "source": "command", "recordedBy": "agent"}}}`,
	})
	testfixture.Touch(t, filepath.Join(project, "src", "a.go"), mustTime(t, "2026-11-12T08:00:00Z"))
	st, err := statusOf(t, vfs.OS, charter, mustTime(t, "2026-11-13T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Criteria) != 2 || st.Criteria[0].Stale || !st.Criteria[1].Stale {
		t.Fatalf("blocks' staleness: %+v; want the first fresh, the later stale", st.Criteria)
	}
	if len(st.Drift.Stale) != 1 || st.Drift.Stale[0].CriterionID != "VAL-T-001" {
		t.Errorf("drift's stale list: %+v; want one entry, the later block's", st.Drift.Stale)
	}
}
