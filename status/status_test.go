package status_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/status"
	"github.com/charter-lsp/charter-lsp/workspace"
)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// statusOf is the status of the charter folder dir as of now (zero: the
// time of the call), computed as the CLI and the server compute it: by a
// workspace snapshot of fsys.
func statusOf(t testing.TB, fsys vfs.FS, dir string, now time.Time) (*status.Status, error) {
	t.Helper()
	if now.IsZero() {
		now = time.Now()
	}
	return workspace.NewSession(workspace.Options{Disk: fsys}).Snapshot().Status(context.Background(), dir, now)
}

// fixtureProject is the pi-project with its file times set (see testfixture).
func fixtureProject(t *testing.T) (project, charter string) { return testfixture.PiProject(t) }

func TestStatusGolden(t *testing.T) {
	_, charter := fixtureProject(t)
	st, err := statusOf(t, vfs.OS, charter, mustTime(t, "2026-11-13T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	st.Dir = "CHARTER_DIR" // the temp dir varies
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // as the CLI encodes
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(st); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	golden := filepath.Join("testdata", "pi-project.status.json")
	if os.Getenv("STATUS_GOLDEN_WRITE") == "1" { // explicit; review the diff before committing
		os.WriteFile(golden+".new", got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("status differs from %s (STATUS_GOLDEN_WRITE=1 writes %s.new to compare):\n%s", golden, golden, got)
	}
}

func TestStatusTextDashboard(t *testing.T) {
	_, charter := fixtureProject(t)
	st, err := statusOf(t, vfs.OS, charter, mustTime(t, "2026-11-13T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := status.Text(&b, st); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"auth-rework — Session handling rework  [active]  2/6 pass",
		"m1-sessions Token sessions  1/4 pass",
		"m2-rollout Rollout  1/2 pass",
		"VAL-SESS-001   pass     2d ago   STALE",
		"VAL-SESS-002   fail     3d ago",
		"VAL-SESS-003   none",
		"report-empty-section REPORT.md ## Outcome needs content",
		"→ charter_record evidence: Work on VAL-SESS-002 next",
		"      run:    charter-lsp verify VAL-SESS-002 --charter .pi/charters/auth-rework\n",
		"      editor: code lens \"▶ Run `bun test -t 'rejects expired token'`\" over VAL-SESS-002's heading (Neovim :CharterVerify)\n",
		"→ charter pause: Pause the charter if the work has to stop for now.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dashboard lacks %q:\n%s", want, out)
		}
	}
}
