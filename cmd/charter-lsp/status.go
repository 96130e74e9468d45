package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/status"
)

func runStatus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text or json")
	now := fs.String("now", "", "compute ages as of this RFC 3339 time (for tests; default: now)")
	srcDirs := fs.String("src", "src", "comma-separated source folders, relative to the project, that make fresh-required evidence stale")
	freshness := fs.String("freshness", "mtime", "how source changes are dated: mtime or git")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: charter-lsp status [DIR] [--format text|json]")
		fmt.Fprintln(stderr, "\nDIR is a charter folder (.pi/charters/<id>/ or .charters/<id>/) or a project folder")
		fmt.Fprintln(stderr, "(default: the current folder, every charter under it). JSON: one object per charter, in an array.")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	dirs, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(dirs) > 1 {
		fmt.Fprintln(stderr, "charter-lsp status: give at most one DIR")
		return 2
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "charter-lsp status: --format %q: use text or json\n", *format)
		return 2
	}
	opts := status.Options{Freshness: *freshness}
	for _, d := range strings.Split(*srcDirs, ",") {
		if d = strings.TrimSpace(d); d != "" {
			opts.SourceDirs = append(opts.SourceDirs, d)
		}
	}
	if opts.SourceDirs == nil {
		opts.SourceDirs = []string{}
	}
	if *now != "" {
		t, err := time.Parse(time.RFC3339Nano, *now)
		if err != nil {
			fmt.Fprintf(stderr, "charter-lsp status: --now: %v\n", err)
			return 2
		}
		opts.Now = t
	}
	charters, err := statusDirs(dirs[0])
	if err != nil {
		fmt.Fprintf(stderr, "charter-lsp status: %v\n", err)
		return 2
	}
	if len(charters) == 0 {
		fmt.Fprintf(stderr, "charter-lsp status: no pi charter (.pi/charters/<id>/ or .charters/<id>/) under %s\n", dirs[0])
		return 1
	}
	all := []*status.Status{}
	code = 0
	for _, dir := range charters {
		st, err := status.Compute(vfs.OS, dir, opts)
		if err != nil {
			fmt.Fprintf(stderr, "charter-lsp status: %s: %v\n", displayPath(dir), err)
			code = 2
			continue
		}
		all = append(all, st)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(all); err != nil {
			return 2
		}
		return code
	}
	for i, st := range all {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s\n", displayPath(st.Dir))
		status.Text(stdout, st)
	}
	return code
}
