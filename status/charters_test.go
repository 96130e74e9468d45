package status_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/status"
)

func writeCharter(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".charters", "20260702-101500-example")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestChartersGolden: the JSON of the three example charters, one per
// current generation family, is the reviewed testdata/charters.status.json.
func TestChartersGolden(t *testing.T) {
	root := filepath.Join("..", "examples", "charters", ".charters")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var all []*status.Status
	for _, e := range entries {
		st, err := statusOf(t, vfs.OS, filepath.Join(root, e.Name()), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		st.Charters.Dir = "CHARTER_DIR/" + e.Name()
		for i := range st.Charters.NextActions {
			a := &st.Charters.NextActions[i]
			a.Hint = strings.ReplaceAll(a.Hint, st.Dir, "CHARTER_DIR/"+e.Name())
		}
		all = append(all, st)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(all); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "charters.status.json")
	if os.Getenv("STATUS_GOLDEN_WRITE") == "1" {
		os.WriteFile(golden+".new", buf.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("status differs from %s (STATUS_GOLDEN_WRITE=1 writes %s.new):\n%s", golden, golden, buf.Bytes())
	}
}

func TestChartersFileInterfaceView(t *testing.T) {
	charter := "## Objective\nShip it.\n## Criteria\n### C1. A\nStatus: pass — ran it\n### C2. B\nDepends: C1\nStatus: fail — slow\n### C3. C\nDepends: C2, C9\nStatus: pending\n### C4. D\nStatus: pass\n"
	sum := sha256.Sum256([]byte(charter))
	state := `{"charterId":"20260702-101500-example","schemaVersion":"file-interface","objective":"Ship it","status":"active",
	  "nextSeq":9,"latestSourceSeq":5,"snapshotHash":"` + hex.EncodeToString(sum[:]) + `",
	  "criteriaSnapshot":[{"id":"C1","title":"A","depends":[],"status":{"value":"pass","note":"ran it"},"statusSeq":3},
	                      {"id":"C4","title":"D","depends":[],"evidence":{"status":"pass","note":""},"evidenceSeq":7}]}`
	events := `{"type":"criterion_changed","criterion":"C2","field":"status.value","new":"fail"}` + "\n" +
		`{"type":"criterion_changed","criterion":"C2","field":"evidence.status","new":"fail"}` + "\n" +
		`{"type":"criterion_changed","criterion":"C2","field":"status.note","new":"fail"}` + "\n"
	dir := writeCharter(t, map[string]string{"charter.md": charter, "state.json": state, "events.jsonl": events})
	st, err := statusOf(t, vfs.OS, dir, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	v := st.Charters
	if v == nil || v.Generation != "fi15" || !v.Legacy || !v.Listed {
		t.Fatalf("view: %+v", v)
	}
	if v.Progress.Pass != 2 || v.Progress.Total != 4 {
		t.Errorf("progress %+v, want 2/4", v.Progress)
	}
	if got := strings.Join(v.ReadyNext, ","); got != "C2" {
		t.Errorf("readyNext %q, want C2 (C3 waits on C2, which fails; C9 names no criterion)", got)
	}
	byID := map[string]status.CharterCriterion{}
	for _, c := range v.Criteria {
		byID[c.ID] = c
	}
	// C1's pass was recorded at seq 3, before the source change at 5: stale.
	// C4's (an ADR-0014 evidence snapshot) at 7: fresh.
	if !byID["C1"].Stale || byID["C4"].Stale {
		t.Errorf("stale: C1 %v C4 %v, want true false", byID["C1"].Stale, byID["C4"].Stale)
	}
	if byID["C2"].FailCount != 2 {
		t.Errorf("C2 failCount %d, want 2 (status.value and evidence.status events)", byID["C2"].FailCount)
	}
	wantBlockers := []string{"C1 pass status is stale", "C2 status is fail", "C3 status is pending", "C4 pass status has empty note", "REPORT.md missing"}
	if strings.Join(v.Blockers, "|") != strings.Join(wantBlockers, "|") {
		t.Errorf("blockers %q\nwant %q", v.Blockers, wantBlockers)
	}
	if v.StatusCounts["pass"] != 2 || v.StatusCounts["fail"] != 1 || v.StatusCounts["pending"] != 1 || v.StatusCounts["blocked"] != 0 {
		t.Errorf("statusCounts %v", v.StatusCounts)
	}

	// Near miss: once charter.md changes C1's note, upstream's refresh
	// dates the change after the source change, so C1 is no longer stale.
	os.WriteFile(filepath.Join(dir, "charter.md"), []byte(strings.Replace(charter, "ran it", "re-ran it", 1)), 0o644)
	st, _ = statusOf(t, vfs.OS, dir, time.Time{})
	for _, c := range st.Charters.Criteria {
		if c.ID == "C1" && c.Stale {
			t.Error("C1 stale after its note changed")
		}
	}
}

func TestChartersPhasesAndObjective(t *testing.T) {
	dir := writeCharter(t, map[string]string{
		"charter.md": "# Objective\nShip it.\n## Phases\n1. A — done\n2. B\n3. C\n",
		"state.json": `{"charterId":"20260702-101500-example","schemaVersion":"phases","objective":"Ship it","status":"paused"}`,
	})
	st, err := statusOf(t, vfs.OS, dir, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	v := st.Charters
	if v.Generation != "phases" || v.PhaseCounts["done"] != 1 || v.PhaseCounts["current"] != 1 || v.PhaseCounts["upcoming"] != 1 {
		t.Fatalf("phases view: %+v", v)
	}
	if len(v.NextActions) == 0 || v.NextActions[0].Action != "resume" {
		t.Errorf("a paused charter's first action is resume: %+v", v.NextActions)
	}
	var b bytes.Buffer
	status.Text(&b, st)
	if !strings.Contains(b.String(), "[paused]  Objective and phases (ADR-0016/0017)  phase 2 of 3") || !strings.Contains(b.String(), "▸ 2. B") {
		t.Errorf("text:\n%s", b.String())
	}

	// An Objective charter with its objective only in state.json (the
	// heading is ## Objective): upstream shows state.json's objective.
	dir = writeCharter(t, map[string]string{
		"charter.md": "## Objective\nShip it.\n\nA note.\n",
		"state.json": `{"charterId":"20260702-101500-example","schemaVersion":"phases","objective":"Ship it (state)","status":"completed"}`,
	})
	st, _ = statusOf(t, vfs.OS, dir, time.Time{})
	v = st.Charters
	if v.Generation != "objective" || v.Objective != "Ship it (state)" || v.Notes != "## Objective\nShip it.\n\nA note." || len(v.NextActions) != 0 {
		t.Errorf("objective view: %+v", v)
	}
	if len(v.Warnings) != 1 || v.Warnings[0] != "missing `# Objective` section" {
		t.Errorf("warnings %q", v.Warnings)
	}
}

func TestChartersUnlisted(t *testing.T) {
	dir := writeCharter(t, map[string]string{
		"charter.md": "# Objective\nShip it.\n",
		"state.json": `{"charterId":"20260702-101500-example","schemaVersion":"phases","objective":"Ship it","status":"planning"}`,
	})
	st, err := statusOf(t, vfs.OS, dir, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	v := st.Charters
	if v.Listed || v.Status != "" || len(v.FileProblems) != 1 || v.FileProblems[0].Code.String() != "state-invalid" || v.FileProblems[0].File != "state.json" {
		t.Errorf("unlisted view: %+v", v)
	}
	if len(v.NextActions) != 1 || v.NextActions[0].Tool != "edit" {
		t.Errorf("next actions: %+v", v.NextActions)
	}
	if _, err := statusOf(t, vfs.OS, writeCharter(t, map[string]string{"notes.txt": "x"}), time.Time{}); err == nil {
		t.Error("a folder with no charter file is not a charter")
	}
}
