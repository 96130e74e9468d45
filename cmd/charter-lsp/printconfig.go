package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// printConfig prints the configuration check applies to path: the project
// file found for it (or --config), the command line's flags over it, the
// defaults filled in, as JSON with a comment saying where it came from, so
// that --config reads it back.
func (c *checkRun) printConfig(path string) int {
	abs, err := filepath.Abs(path)
	if err != nil {
		fmt.Fprintf(c.e.stderr, "charter-lsp check: %s: %v\n", path, err)
		return 2
	}
	fi, err := c.disk.Stat(abs)
	if err == nil {
		c.addProject(abs, fi.IsDir())
	} else {
		c.addProject(abs, false)
	}
	probe := abs
	if err == nil && fi.IsDir() {
		probe = filepath.Join(abs, "charter.md") // any file in the folder: its configuration
	}
	snap := c.snapshot(nil)
	cfg, err := snap.Config(probe)
	if err != nil {
		fmt.Fprintf(c.e.stderr, "charter-lsp check: %v\n", err)
		return 2
	}
	from := "no configuration file: the defaults"
	switch file, _ := snap.IgnoredProjectKeys(probe); {
	case c.config != nil:
		from = displayPath(c.opts.config) + " (--config)"
	case file != "":
		from = displayPath(file)
	}
	if c.opts.freshness.value != "" || len(c.opts.severity) > 0 {
		from += ", with the command line's flags"
	}
	out, err := json.MarshalIndent(cfg.Effective(), "", "  ")
	if err != nil {
		fmt.Fprintf(c.e.stderr, "charter-lsp check: %v\n", err)
		return 2
	}
	fmt.Fprintf(c.e.stdout, "// %s\n%s\n", from, out)
	return 0
}
