package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/status"
	"github.com/charter-lsp/charter-lsp/workspace"
)

const statusAbout = `Shows what pi-charter's charter_status reports, computed from the files: milestones and VALs
with their latest outcome, drift (uncovered, stale, ready next, sidecars edited by hand),
what blocks completion, and the next actions, each with the charter-lsp command or editor
action that does it. DIR is a charter folder (.pi/charters/<id>/ or .charters/<id>/) or a project folder (default: the current
folder, every charter under it). --format json prints an array, one object per charter
(docs/status-json.md).

Source folders and freshness come from .charter-lsp.jsonc (sourceDirs, freshness), as for
check; --src and --freshness override it.

Exit status: 0 shown; 1 no pi charter under DIR; 2 a usage or I/O error.`

func runStatus(e *env, args []string) int {
	fl := newFlags("status", "[DIR] [flags]", statusAbout, e)
	format := newChoice("text", "text", "json")
	fl.Var(format, "format", "output `format`: text or json")
	fl.alias("f", "format")
	configPath := fl.String("config", "", "configuration `file` (default: the .charter-lsp.jsonc found above each charter)")
	fl.alias("c", "config")
	srcDirs := fl.String("src", "", "comma-separated source `folders`, relative to the project, whose changes make fresh-required evidence stale (default: sourceDirs of the configuration, else src)")
	freshness := fl.freshnessFlag()
	now := fl.String("now", "", "compute ages as of this RFC 3339 `time` (for tests; default: now)")
	dirs, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(dirs) > 1 {
		return fl.usageError("give at most one DIR, not %d", len(dirs))
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	var explicit *analysis.Config
	if *configPath != "" {
		// Named by the user: read wherever it is, but like every file
		// (bounded, never blocking on a FIFO).
		src, err := vfs.OS.ReadFile(*configPath)
		if err != nil {
			return fl.usageError("--config: %v", err)
		}
		cfg, err := analysis.ParseConfig(src)
		if err != nil {
			return fl.usageError("--config %s: %v", *configPath, err)
		}
		explicit = &cfg
	}
	var at time.Time
	if *now != "" {
		t, err := time.Parse(time.RFC3339Nano, *now)
		if err != nil {
			return fl.usageError("--now %q: want an RFC 3339 time such as 2026-11-14T09:30:00Z", *now)
		}
		at = t
	}
	// Nothing outside DIR's project is read (a charter folder or a
	// .charter-lsp.jsonc linked elsewhere), as the server reads nothing
	// outside its workspace folders.
	ps, _, err := projectsOf(dirs[0])
	if err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp status: %v\n", err)
		return 2
	}
	disk := ps.fs()
	charters, err := statusDirs(disk, dirs[0])
	if err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp status: %s\n", readError(err))
		return 2
	}
	if len(charters) == 0 {
		termtext.Fprintf(e.stderr, "charter-lsp status: no pi charter (.pi/charters/<id>/ or .charters/<id>/) under %s\n", dirs[0])
		return 1
	}
	// Each charter's configuration, as check finds it (one snapshot of the
	// disk, the engine the server runs); flags win key by key.
	settings := workspace.Settings{}
	if explicit != nil {
		settings = workspace.Settings{Config: *explicit, Exclusive: true}
	}
	if *srcDirs != "" {
		settings.Config.SourceDirs = []string{}
		for _, d := range strings.Split(*srcDirs, ",") {
			if d = strings.TrimSpace(d); d != "" {
				settings.Config.SourceDirs = append(settings.Config.SourceDirs, d)
			}
		}
	}
	if freshness.value != "" {
		settings.Config.Freshness = pi.Freshness(freshness.value)
	}
	if at.IsZero() {
		at = time.Now()
	}
	snap := workspace.NewSession(workspace.Options{Disk: disk}).Update(workspace.Change{Settings: &settings})
	ctx := context.Background()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(e.stderr, "charter-lsp status: %v\n", err)
		return 2
	}
	all := []*status.Status{}
	code = 0
	for _, dir := range charters {
		if _, err := snap.Config(filepath.Join(dir, "criteria.md")); err != nil {
			termtext.Fprintf(e.stderr, "charter-lsp status: %v\n", err)
			code = 2
			continue
		}
		st, err := snap.Status(ctx, dir, at)
		if err != nil {
			termtext.Fprintf(e.stderr, "charter-lsp status: %s: %v\n", displayPath(dir), err)
			code = 2
			continue
		}
		all = append(all, st.From(wd))
	}
	if format.value == "json" {
		if writeJSONValue(e, all) != 0 {
			return 2
		}
		return code
	}
	for i, st := range all {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		termtext.Fprintf(e.stdout, "%s\n", displayPath(st.Dir))
		status.Text(e.stdout, st)
	}
	return code
}
