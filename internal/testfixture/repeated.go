package testfixture

import (
	"path/filepath"
	"testing"
)

// Repeated VAL register (RepeatedVAL): the block upstream reads for
// VAL-T-001 and the later one it never reads.
const (
	RepeatedFirstTitle = "The block upstream reads"
	RepeatedLaterTitle = "The later block nobody reads"
)

// RepeatedVAL writes a pi project whose charter "twice" repeats VAL-T-001:
// first in milestone m1 with a command verifier, again in m2 with a manual
// one; VAL-T-002 has a failing record. It returns the project and the
// charter folder.
func RepeatedVAL(t testing.TB) (project, charter string) {
	t.Helper()
	project = t.TempDir()
	charter = filepath.Join(project, ".pi", "charters", "twice")
	WriteFiles(t, charter, map[string]string{
		"state.json": `{"charterId": "twice", "schemaVersion": "v2", "name": "Twice", "objective": "o", "status": "active",
  "createdAt": "2026-11-09T12:00:00.000Z", "updatedAt": "2026-11-09T12:00:00.000Z"}`,
		"criteria.md": "# Criteria\n\n## m1 First\n\n" +
			"### VAL-T-001 — " + RepeatedFirstTitle + "\nVerifier: command\nCommand: go test ./first/...\n\n" +
			"### VAL-T-002 — Another\nVerifier: manual\n\n" +
			"## m2 Second\n\n" +
			"### VAL-T-001 — " + RepeatedLaterTitle + "\nVerifier: manual\n",
		"criterion-state.json": `{"charterId": "twice", "criteria": {"VAL-T-002": {"outcome": "fail", "lastTs": "2026-11-10T08:00:00.000Z",
  "lastSummary": "no", "source": "manual", "recordedBy": "user", "because": "seen"}}}`,
	})
	return project, charter
}
