// Command charter-lsp is the charter language server and its CLI.
//
//	charter-lsp [serve]                 speak LSP over stdio
//	charter-lsp init [DIR]              write .charter-lsp.jsonc (--charter: a new charter)
//	charter-lsp check [flags] PATH…     print diagnostics, fix what has a safe fix
//	charter-lsp interview CHARTER.md    print the next interview action
//	charter-lsp status [DIR]            show pi-charter status
//	charter-lsp record VAL-ID …         record evidence
//	charter-lsp verify VAL-ID|C<n>      run a criterion's command, record it
//	charter-lsp migrate PATH [--write]  turn an older charter into a current one
//	charter-lsp rules | explain CODE    the diagnostic codes
//	charter-lsp completion SHELL        a shell completion script
//	charter-lsp version
//
// Every command takes -h/--help (help on stdout, exit 0) and -V/--version.
// Exit status, as markdownlint-cli2 and eslint: 0 fine, 1 findings or a
// failed action, 2 a usage or I/O error (the message names the flag).
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// env is what a command reads and writes besides its arguments.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	flags          *flags // the command's flags, once it defined them
}

// A command runs with its arguments (after the command name) and returns the
// process exit code.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

// commands, in the order help lists them (set in init: completion reads
// the list to describe the commands).
var commands []command

func init() {
	commands = []command{
		{"serve", "speak the Language Server Protocol over stdio (the default)", runServe},
		{"init", "write a .charter-lsp.jsonc and, with --charter, a new charter (rp1, .charters or pi)", runInit},
		{"check", "print diagnostics for charter files or folders; --fix applies the fixes", runCheck},
		{"interview", "print the next interview action for an rp1 charter", runInterview},
		{"status", "show pi-charter status: milestones, VALs, drift, blockers, next actions", runStatus},
		{"record", "record evidence for a VAL, as pi-charter's charter_record does", runRecord},
		{"verify", "run a criterion's command (after you confirm it) and record what it printed", runVerify},
		{"migrate", "turn an older charter into one in the current grammar (prints; --write creates)", runMigrate},
		{"rules", "list every diagnostic code: severity, family, fix safety, what triggers it", runRules},
		{"explain", "explain a diagnostic code: what triggers it, an example, the fix, its docs URL", runExplain},
		{"completion", "print a shell completion script: bash, zsh or fish", runCompletion},
		{"version", "print the version", runVersion},
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		if isTerminal(stdin) {
			// A person typed `charter-lsp`: waiting silently for LSP
			// frames would look like a hang.
			usage(stdout)
			fmt.Fprintln(stdout, "\nWith no command and stdin a pipe, charter-lsp serves LSP (what editors launch);\n`charter-lsp serve` serves in a terminal too.")
			return 0
		}
		return runServe(e, nil)
	}
	switch name := args[0]; {
	case isHelpFlag(name) || name == "help":
		if name == "help" && len(args) > 1 {
			// `charter-lsp help check` is `charter-lsp check -h`.
			if _, ok := lookup(args[1]); ok {
				return run([]string{args[1], "-h"}, stdin, stdout, stderr)
			}
			return usageError(stderr, "", "unknown command %q", args[1])
		}
		usage(stdout)
		return 0
	case isVersionFlag(name):
		printVersion(stdout)
		return 0
	case strings.HasPrefix(name, "-"):
		// Flags without a command: serve's flags, as editors pass them
		// (`charter-lsp --stdio`). serve refuses any other flag.
		return serve(e, args, "")
	}
	cmd, ok := lookup(args[0])
	if !ok {
		return usageError(stderr, "", "unknown command %q", args[0])
	}
	switch rest := args[1:]; {
	case asks(rest, isHelpFlag):
		// Help is the output the user asked for: all of it goes to stdout
		// (`charter-lsp check -h | less`), whichever writer a command uses.
		e.stderr = stdout
	case asks(rest, isVersionFlag):
		printVersion(stdout)
		return 0
	}
	return cmd.run(e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "charter-lsp: a language server and linter for charter files (rp1 charter.md, pi-charter .pi/charters/<id>/ and .charters/<id>/).")
	fmt.Fprintln(w, "\nUsage: charter-lsp [command] [flags] [args]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'charter-lsp COMMAND -h' for a command's flags; 'charter-lsp --version' for the version.")
}

func runVersion(e *env, args []string) int {
	fl := newFlags("version", "", "Prints the version.", e)
	rest, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return fl.usageError("unexpected argument %q", rest[0])
	}
	printVersion(e.stdout)
	return 0
}

func printVersion(w io.Writer) { fmt.Fprintf(w, "charter-lsp %s\n", version) }
