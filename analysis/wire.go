package analysis

import (
	"context"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// checkPiDir connects the pi-charter kinds to their package's checks.
func checkPiDir(fsys vfs.FS, dir string, cfg Config, now time.Time, clock pi.SourceClock, load pi.LoadOptions) map[string][]diag.Diagnostic {
	return pi.Check(context.Background(), pi.LoadDirWith(fsys, dir, load), pi.Options{
		SourceDirs: cfg.Sources(),
		Freshness:  cfg.FreshnessMode(),
		Now:        now,
		Clock:      clock,
		FS:         fsys,
	})
}
