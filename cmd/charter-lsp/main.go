// Command charter-lsp is the charter language server and its CLI.
//
//	charter-lsp [serve]                 speak LSP over stdio
//	charter-lsp check [flags] PATH…     print diagnostics
//	charter-lsp interview CHARTER.md    print the next interview action
//	charter-lsp status [DIR]            show pi-charter status
//	charter-lsp record VAL-ID …         record evidence
//	charter-lsp migrate PATH [--write]  turn an older charter into a current one
//	charter-lsp version
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set by the Makefile with -ldflags.
var version = "dev"

// A command runs with its arguments (after the command name) and returns the
// process exit code: 0 fine, 1 findings or a failed action, 2 usage or I/O error.
type command struct {
	run     func(args []string, stdout, stderr io.Writer) int
	summary string
}

var commands = map[string]command{
	"serve":     {runServe, "speak the Language Server Protocol over stdio (the default)"},
	"check":     {runCheck, "print diagnostics for charter files or folders"},
	"interview": {runInterview, "print the next interview action for an rp1 charter"},
	"status":    {runStatus, "show pi-charter status: milestones, VALs, blockers, next actions"},
	"record":    {runRecord, "record evidence for a VAL, as charter_record does"},
	"migrate":   {runMigrate, "turn an older charter into one in the current grammar (prints; --write creates)"},
	"version":   {runVersion, "print the version"},
}

var commandOrder = []string{"serve", "check", "interview", "status", "record", "migrate", "version"}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (len(args[0]) > 0 && args[0][0] == '-' && args[0] != "-h" && args[0] != "--help" && args[0] != "-help") {
		// No command, or only flags: the language server, as editors launch it.
		return runServe(args, stdout, stderr)
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "charter-lsp: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	return cmd.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "charter-lsp: a language server and linter for charter files (rp1 charter.md, pi-charter criteria.md).")
	fmt.Fprintln(w, "\nUsage: charter-lsp [command] [flags] [args]")
	fmt.Fprintln(w, "\nCommands:")
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nRun 'charter-lsp COMMAND -h' for a command's flags.")
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "charter-lsp %s\n", version)
	return 0
}
