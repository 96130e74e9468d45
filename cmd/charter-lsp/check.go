package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

func runCheck(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "output format: text, json or sarif")
	configPath := fl.String("config", "", "configuration file (default: .charter-lsp.jsonc found above each file)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: charter-lsp check [--format text|json|sarif] [--config FILE] [PATH…]")
		fmt.Fprintln(stderr, "\nChecks charter files, or every charter under the folders given (default: the current folder).")
		fmt.Fprintln(stderr, "Exit status: 0 no errors, 1 an error-severity diagnostic was found, 2 usage or I/O error.")
		fmt.Fprintln(stderr, "\nFlags:")
		fl.PrintDefaults()
	}
	paths, code, ok := parseFlags(fl, args)
	if !ok {
		return code
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(stderr, "charter-lsp check: unknown format %q (want text, json or sarif)\n", *format)
		return 2
	}
	checker := &analysis.Checker{FS: vfs.OS}
	if *configPath != "" {
		src, err := os.ReadFile(*configPath)
		if err != nil {
			fmt.Fprintf(stderr, "charter-lsp check: %v\n", err)
			return 2
		}
		cfg, err := analysis.ParseConfig(src)
		if err != nil {
			fmt.Fprintf(stderr, "charter-lsp check: %s: %v\n", *configPath, err)
			return 2
		}
		checker.Config = &cfg
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var all []diag.Diagnostic
	for _, p := range paths {
		ds, err := checker.CheckPath(p)
		if err != nil {
			fmt.Fprintf(stderr, "charter-lsp check: %v\n", err)
			return 2
		}
		all = append(all, ds...)
	}
	for i := range all {
		all[i].File = displayPath(all[i].File)
	}
	diag.Sort(all)
	var err error
	switch *format {
	case "text":
		err = writeText(stdout, all)
	case "json":
		err = writeJSON(stdout, all)
	case "sarif":
		err = writeSARIF(stdout, all, version)
	}
	if err != nil {
		fmt.Fprintf(stderr, "charter-lsp check: %v\n", err)
		return 2
	}
	if analysis.HasErrors(all) {
		return 1
	}
	return 0
}

// displayPath prints paths relative to the working folder when they are
// below it, as linters do.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}

// writeText prints `file:line:col severity code message`, 1-based as editors
// and compilers print positions.
func writeText(w io.Writer, ds []diag.Diagnostic) error {
	counts := map[diag.Severity]int{}
	for _, d := range ds {
		counts[d.Severity]++
		if _, err := fmt.Fprintf(w, "%s:%d:%d %s %s %s\n", d.File, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity, d.Code, d.Message); err != nil {
			return err
		}
	}
	if len(ds) > 0 {
		_, err := fmt.Fprintf(w, "\n%d problems (%d errors, %d warnings, %d information, %d hints)\n", len(ds),
			counts[diag.SeverityError], counts[diag.SeverityWarning], counts[diag.SeverityInformation], counts[diag.SeverityHint])
		return err
	}
	return nil
}

// writeJSON prints the SPEC §5 array (LSP positions: 0-based, UTF-16).
func writeJSON(w io.Writer, ds []diag.Diagnostic) error {
	if ds == nil {
		ds = []diag.Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ds)
}
