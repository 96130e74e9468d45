package hostile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/interview"
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

// A .charter-lsp.jsonc that is a link to a file outside the project (a
// credentials file) is not read by check, status, interview or migrate:
// nothing of the file reaches their output (config-invalid used to quote
// it), and check says why the configuration was not read.
func TestConfigLinkedOutOfTheProjectIsNotRead(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	for _, secret := range []string{
		"aws_secret_access_key=SECRETVALUE\n",
		`{"aws_secret_access_key": "SECRETVALUE", "severity": {"SECRETKEY": "SECRETVALUE"}}` + "\n",
	} {
		project, _ := testfixture.PiProject(t)
		creds := filepath.Join(t.TempDir(), "credentials")
		write(t, creds, secret)
		if err := os.Symlink(creds, filepath.Join(project, ".charter-lsp.jsonc")); err != nil {
			t.Skip(err)
		}
		write(t, filepath.Join(project, "rp1", ".rp1", "context", "charter.md"), read(t, filepath.Join(testfixture.Dir(), "rp1-interview", "create-after-brain-dump.md")))
		rp1Charter := filepath.Join("rp1", ".rp1", "context", "charter.md")
		for _, args := range [][]string{
			{"check", "."},
			{"check", "--format", "json", "."},
			{"check", "--format", "sarif", "."},
			{"check", "--format", "github", "."},
			{"check", "--fix", "."},
			{"status", "."},
			{"status", "--format", "json", "."},
			{"interview", rp1Charter},
			{"migrate", rp1Charter},
		} {
			out, _ := run(t, project, bin, args...)
			if strings.Contains(out, "SECRET") || strings.Contains(out, "aws_secret") {
				t.Errorf("%s prints the linked file's content:\n%s", strings.Join(args, " "), out)
			}
			if args[0] == "check" && args[1] != "--fix" && !strings.Contains(out, "symbolic link") {
				t.Errorf("%s does not say the configuration was not read:\n%s", strings.Join(args, " "), out)
			}
		}
	}
}

// With .rp1, .pi, .pi/charters or .charters a link to another tree,
// interview --apply, migrate --write and check --fix refuse, saying why,
// and nothing changes in the tree the link leads to.
func TestWritersStayInTheProject(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	scratchPad := read(t, filepath.Join(testfixture.Dir(), "rp1-interview", "create-after-brain-dump.md"))
	// A skeleton charter without **Status**: check --fix adds it.
	skeleton := regexp.MustCompile(`(?m)^\*\*Status\*\*:.*\n`).ReplaceAllString(string(interview.NewSkeleton("x", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))), "")

	type attack struct {
		name string
		link string // the project's path that becomes a link to elsewhere
		fill func(t *testing.T, elsewhere string)
		args []string
	}
	rp1 := func(text string) func(*testing.T, string) {
		return func(t *testing.T, elsewhere string) {
			write(t, filepath.Join(elsewhere, "context", "charter.md"), text)
		}
	}
	piCharters := func(t *testing.T, elsewhere string) {
		src, _ := testfixture.PiProject(t)
		if err := os.CopyFS(elsewhere, os.DirFS(filepath.Join(src, ".pi", "charters"))); err != nil {
			t.Fatal(err)
		}
	}
	pi := func(t *testing.T, elsewhere string) { piCharters(t, filepath.Join(elsewhere, "charters")) }
	for _, a := range []attack{
		{"interview --apply through .rp1", ".rp1", rp1(scratchPad), []string{"interview", "--apply", ".rp1/context/charter.md"}},
		{"interview --answer through .rp1", ".rp1", rp1(skeleton), []string{"interview", "--contract", "finalizer", "--answer", "a vision", ".rp1/context/charter.md"}},
		{"migrate --write through .rp1", ".rp1", rp1(scratchPad), []string{"migrate", "--write", ".rp1/context/charter.md"}},
		{"check --fix through .rp1", ".rp1", rp1(skeleton), []string{"check", "--fix", ".rp1/context/charter.md"}},
		{"check --fix through .pi/charters", ".pi/charters", piCharters, []string{"check", "--fix", ".pi/charters"}},
		{"check --fix through .pi", ".pi", pi, []string{"check", "--fix", ".pi/charters/auth-rework"}},
		{"migrate --write through .pi", ".pi", pi, []string{"migrate", "--write", ".pi/charters/auth-rework"}},
	} {
		t.Run(a.name, func(t *testing.T) {
			project := t.TempDir()
			elsewhere := t.TempDir()
			a.fill(t, elsewhere)
			link := filepath.Join(project, a.link)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, link); err != nil {
				t.Skip(err)
			}
			before := contents(t, elsewhere)
			out, code := run(t, project, bin, a.args...)
			if after := contents(t, elsewhere); after != before {
				t.Errorf("%s wrote where the link leads (exit %d):\n%s", strings.Join(a.args, " "), code, out)
			}
			if code == 0 || !strings.Contains(out, "symbolic link") {
				t.Errorf("%s: exit %d, want a refusal naming the link:\n%s", strings.Join(a.args, " "), code, out)
			}
		})
	}
}

// migrate on an rp1 charter that is a FIFO, or a link to /dev/zero, refuses
// it at once: a FIFO is not a regular file, and the link leads out of the
// project (migrate used to wait forever on the FIFO, and read /dev/zero
// until out of memory).
func TestMigrateNeverReadsADeviceOrWaitsOnAFIFO(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero")
	}
	bin := testfixture.Server(t)
	for _, c := range []struct {
		name, want string
		make       func(p string) error
	}{
		{"/dev/zero", "symbolic link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"a FIFO", "not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		project := t.TempDir()
		p := filepath.Join(project, ".rp1", "context", "charter.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := c.make(p); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"migrate", ".rp1/context/charter.md"}, {"migrate", "--write", ".rp1/context/charter.md"}} {
			out, code := run(t, project, bin, args...)
			if code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%s on %s: exit %d, want 2 saying %q:\n%s", strings.Join(args, " "), c.name, code, out, c.want)
			}
		}
	}
}

// contents lists every file under root with its content.
func contents(t *testing.T, root string) string {
	t.Helper()
	var b bytes.Buffer
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(root, p)
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "== %s\n%s\n", rel, data)
		}
		return nil
	})
	return b.String()
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
