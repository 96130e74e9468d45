package testfixture

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// freshCharter is a pi charter with no finding but freshness: its one
// milestone's three VALs pass, and VAL-API-001 requires fresh evidence.
var freshCharter = map[string]string{
	"charter.md": "# Charter: Export API\n\n## Objective\n\nServe the export as JSON.\n\n## Commands\n\ntest: go test ./src/...\n",
	"criteria.md": "# Criteria\n\n## m1-api Export API\n\n" +
		"### VAL-API-001 — The export endpoint answers JSON\nVerifier: command\nCommand: go test ./src/api/...\nRequireFreshEvidence: true\n\n" +
		"### VAL-API-002 — The export lists every row\nVerifier: command\nCommand: go test ./src/api/...\n\n" +
		"### VAL-API-003 — The export names its columns\nVerifier: command\nCommand: go test ./src/api/...\n",
	"state.json": `{"charterId": "export-api", "schemaVersion": "v2", "name": "Export API", "objective": "Serve the export as JSON.", "status": "active", "createdAt": "2026-11-01T09:00:00.000Z", "updatedAt": "2026-11-10T12:00:00.000Z"}` + "\n",
}

// FreshEvidenceDir is the charter folder of FreshEvidenceRepo's project.
const FreshEvidenceDir = ".pi/charters/export-api"

// freshEvidence is the evidence run recorded at 2026-11-10T12:00Z.
const freshEvidence = `[
{"charterId": "export-api", "criterionId": "VAL-API-001", "featureId": "m1-api", "outcome": "pass", "summary": "go test ./src/api/... ok", "source": "verifier", "recordedBy": "agent:root", "verifier": "command", "ts": "2026-11-10T12:00:00.000Z"},
{"charterId": "export-api", "criterionId": "VAL-API-002", "featureId": "m1-api", "outcome": "pass", "summary": "go test ./src/api/... ok", "source": "verifier", "recordedBy": "agent:root", "verifier": "command", "ts": "2026-11-10T12:00:00.000Z"},
{"charterId": "export-api", "criterionId": "VAL-API-003", "featureId": "m1-api", "outcome": "pass", "summary": "go test ./src/api/... ok", "source": "verifier", "recordedBy": "agent:root", "verifier": "command", "ts": "2026-11-10T12:00:00.000Z"}
]
`

// FreshEvidenceRepo builds, with the real git, the repository a CI job
// would check out: the charter and its source (2026-11-01), a source
// change (2026-11-10 09:00), the evidence recorded after it at 12:00 and
// committed at 12:05, and a change to the README only (2026-11-11). Its
// evidence is fresh. With stale, one more commit changes the source after
// the evidence (2026-11-12): then it is stale.
func FreshEvidenceRepo(t testing.TB, stale bool) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(date, message string) {
		t.Helper()
		Git(t, dir, date, "add", "-A")
		Git(t, dir, date, "commit", "-qm", message)
	}
	Git(t, dir, "2026-11-01T09:00:00Z", "init", "-q", "-b", "main")
	for name, text := range freshCharter {
		write(FreshEvidenceDir+"/"+name, text)
	}
	write("src/api/export.go", "package api\n")
	write("README.md", "# Export\n")
	commit("2026-11-01T09:00:00Z", "charter and source")
	write("src/api/export.go", "package api\n\n// Export answers JSON.\nfunc Export() {}\n")
	commit("2026-11-10T09:00:00Z", "export answers JSON")
	write(FreshEvidenceDir+"/work/m1-api/evidence/2026-11-10T12-00-00-000Z/evidence.json", freshEvidence)
	commit("2026-11-10T12:05:00Z", "evidence for m1-api")
	write("README.md", "# Export\n\nServes the export as JSON.\n")
	commit("2026-11-11T09:00:00Z", "readme")
	if stale {
		write("src/api/export.go", "package api\n\n// Export answers JSON, streamed.\nfunc Export() {}\n")
		commit("2026-11-12T09:00:00Z", "stream the export")
	}
	return dir
}

// Clone clones repo with the real git, as actions/checkout does: depth 0
// is the full history, depth 1 its default.
func Clone(t testing.TB, repo string, depth int) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "clone")
	args := []string{"clone", "-q", "--no-local"}
	if depth > 0 {
		args = append(args, "--depth", "1")
	}
	Git(t, filepath.Dir(dst), "", append(args, "file://"+filepath.ToSlash(repo), dst)...)
	return dst
}

// Git runs git in dir as of date (author and committer; "" for now),
// isolated from the user's and the system's configuration, and returns
// its output.
func Git(t testing.TB, dir, date string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=dev", "GIT_COMMITTER_EMAIL=dev@example.com")
	if date != "" {
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}
