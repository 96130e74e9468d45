package analysis

import (
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// checkPiDir and checkChartersDir connect the folder kinds to their packages' checks.
func checkPiDir(fsys vfs.FS, dir string, cfg Config, now time.Time, clock pi.SourceClock, load pi.LoadOptions) map[string][]diag.Diagnostic {
	return pi.Check(pi.LoadDirWith(fsys, dir, load), pi.Options{
		SourceDirs: cfg.Sources(),
		Freshness:  cfg.FreshnessMode(),
		Now:        now,
		Clock:      clock,
		FS:         fsys,
	})
}

func checkChartersDir(fsys vfs.FS, dir string) map[string][]diag.Diagnostic {
	return charterfile.Check(charterfile.LoadDir(fsys, dir))
}
