package hostile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// These tests attack the file system side of the binary: what it reads and
// where it writes on a repository whose links lead elsewhere.

// `record` on a criterion-state.json of 400k VALs (5.6 MB) finishes, and
// keeps the file's key order and layout: only the recorded VAL's entry and
// lastToolWriteAt change. One scan per key made this quadratic (100k keys
// took over 15 s, so 400k would take minutes, past the deadline); the
// deadline is the only clock here.
func TestRecordOnAHugeCriterionState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	project, charter := testfixture.PiProject(t)
	state := filepath.Join(charter, "criterion-state.json")
	before := read(t, state)
	var extra strings.Builder
	for i := range 400_000 {
		fmt.Fprintf(&extra, "    \"VAL-X-%06d\": 0,\n", i)
	}
	// The extra keys go first, so the recorded VAL-ROLL-001 sits at the end.
	huge := strings.Replace(before, "\"criteria\": {\n", "\"criteria\": {\n"+extra.String(), 1)
	write(t, state, huge)

	out, code := run(t, project, bin, "record", "VAL-ROLL-001", "--outcome", "pass", "--summary", "s", "--source", "verifier", "--charter", charter)
	if code != 0 {
		t.Fatalf("record: exit %d\n%s", code, out)
	}
	after := read(t, state)
	// The same lines, but for the values of VAL-ROLL-001's entry and
	// lastToolWriteAt.
	changed := regexp.MustCompile(`(?m)^(\s*"(lastEvidencePath|lastTs|lastSummary|outcome|source|recordedBy|lastToolWriteAt)": ).*$`)
	if got, want := changed.ReplaceAllString(after, "$1…"), changed.ReplaceAllString(huge, "$1…"); got != want {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the rewritten file differs from the old one beyond the recorded VAL, at byte %d:\n%.200q\nwant\n%.200q", i, got[i:], want[i:])
	}
	if !strings.Contains(after, `"lastSummary": "s"`) {
		t.Errorf("the record is not in criterion-state.json")
	}
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
