package pi

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Outside a repository the git clock falls back to the file times, and a
// clock that gives up never stands in for that: no repository is not an
// unreadable one. (What a clock that gives up makes of the evidence is
// workspace's TestGitClockThatGivesUpJudgesNothing, through the snapshot.)
func TestGitClockOutsideARepositoryIsNotUnread(t *testing.T) {
	project := t.TempDir()
	mustWrite(t, filepath.Join(project, "src", "a.go"), "package a\n")
	ch, ok := GitClock{FS: vfs.OS, Dirs: []string{"src"}, Limits: gitlog.Limits{Timeout: time.Nanosecond},
		Fallback: MtimeClock{FS: vfs.OS, Dirs: []string{"src"}}}.Newest(project)
	if !ok || ch.Unread != nil || ch.Time.IsZero() {
		t.Errorf("Newest outside a repository: %+v, %v; want the file time", ch, ok)
	}
}
