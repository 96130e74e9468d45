package status

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// sourceChange returns the newest change under the source folders of
// project, and false when there is none (no folder, no file): then nothing
// is stale, as upstream rules.
func sourceChange(fsys vfs.FS, project string, opts Options) (time.Time, bool) {
	if project == "" {
		return time.Time{}, false
	}
	if opts.Freshness == "git" {
		if t, ok := gitChange(project, opts.SourceDirs); ok {
			return t, true
		}
	}
	var newest time.Time
	found := false
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 {
			return
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if e.Type()&fs.ModeSymlink != 0 {
				continue // stay inside the project, as discovery does
			}
			if e.IsDir() {
				walk(p, depth+1)
				continue
			}
			fi, err := fsys.Stat(p)
			if err != nil {
				continue
			}
			if t := fi.ModTime(); !found || t.After(newest) {
				newest, found = t, true
			}
		}
	}
	for _, d := range opts.SourceDirs {
		walk(filepath.Join(project, filepath.FromSlash(d)), 0)
	}
	return newest, found
}

// gitChange is the commit time of the last commit touching dirs. git is run
// with fixed arguments; nothing from a charter file reaches it.
func gitChange(project string, dirs []string) (time.Time, bool) {
	args := []string{"-C", project, "log", "-1", "--format=%cI", "--"}
	for _, d := range dirs {
		if strings.HasPrefix(d, "-") {
			return time.Time{}, false
		}
		args = append(args, d)
	}
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	return t, err == nil
}
