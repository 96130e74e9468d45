package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/record"
	"github.com/charter-lsp/charter-lsp/verify"
)

const verifyAbout = `Runs the command that verifies one criterion and records what it printed: a pi-charter VAL's
Command: (or the ## Commands entry it names) as evidence — a new run folder's evidence.json
with --source verifier, the output beside it as output.log, and criterion-state.json — or a
.charters criterion's Command: line as its Status (Evidence) line, the output under
work/verify/. The outcome is the exit status: 0 pass, anything else fail.

The command comes from the repository, so it runs only once you have seen it: it is printed
verbatim and, on a terminal, you are asked to confirm; without a terminal nothing runs unless
--yes is given. It runs with /bin/sh -c in the project folder (the one holding .pi/ or
.charters/), with this environment and no input; its output goes to stdout as it comes, our
lines to stderr. Ctrl-C or the timeout ends it and every process it started, and records
nothing. Example:

  charter-lsp verify VAL-SESS-001 --charter .pi/charters/auth-rework

Exit status: 0 recorded pass; 1 recorded fail, or nothing recorded (declined, timed out, the
charter refused the record); 2 a usage or I/O error; 130 interrupted.`

func runVerify(e *env, args []string) int {
	fl := newFlags("verify", "VAL-ID|C<n> [--charter DIR] [--yes] [flags]", verifyAbout, e)
	var charterArg string
	var yes bool
	var timeout time.Duration
	fl.StringVar(&charterArg, "charter", ".", "the charter `dir`ectory, or a folder holding the one charter with that criterion")
	fl.BoolVar(&yes, "yes", false, "run without asking (the command is still printed first)")
	fl.DurationVar(&timeout, "timeout", verify.DefaultTimeout, "stop the command after this `duration` (records nothing)")
	ids, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	switch {
	case len(ids) == 0:
		return fl.usageError("give the criterion to verify, e.g. charter-lsp verify VAL-SESS-001 (or C1 in a .charters charter)")
	case len(ids) > 1:
		return fl.usageError("give one criterion, not %d (%s): verify them one after the other", len(ids), strings.Join(ids, " "))
	case timeout <= 0:
		return fl.usageError("--timeout must be positive, e.g. 10m")
	}
	t, root, err := verifyTarget(charterArg, ids[0])
	if err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp verify: %v\n", err)
		return 2
	}
	if err := t.InsideFolders([]string{root}); err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp verify: not running %s's command: %v\n", t.ID, err)
		return 2
	}

	// Show the command verbatim, then ask.
	fmt.Fprintf(e.stderr, "%s\n", termtext.Escape(t.Prompt()))
	if !yes {
		if !isTerminal(e.stdin) {
			fmt.Fprintln(e.stderr, "charter-lsp verify: not running it: stdin is not a terminal to ask on; pass --yes to run it")
			return 2
		}
		fmt.Fprint(e.stderr, "Run it? [y/N] ")
		answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(e.stderr, "Not run; nothing recorded.")
			return 1
		}
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	res, err := verify.Run(ctx, t.Verification.Command, verify.Options{Dir: t.Project, Timeout: timeout, Output: func(p []byte) { e.stdout.Write(p) }})
	if err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp verify: %v\n", err)
		return 2
	}
	switch {
	case res.Cancelled:
		fmt.Fprintln(e.stderr, "\nInterrupted; nothing recorded.")
		return 130
	case res.TimedOut:
		fmt.Fprintf(e.stderr, "\nStopped after %s (--timeout); nothing recorded.\n", timeout)
		return 1
	}
	recorded, artifact, err := verifyRecord(t, res)
	if err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp verify: %s: %s; not recorded: %v\n", res.Outcome(), res.Ran(), err)
		return 1
	}
	termtext.Fprintf(e.stderr, "%s %s: %s\nrecorded in %s (output: %s)\n", t.ID, res.Outcome(), res.Ran(), displayPath(recorded), displayPath(artifact))
	if !res.Passed() {
		return 1
	}
	return 0
}

// verifyTarget finds criterion id: in the charter folder arg names, or in
// the one charter under arg that has it. root is the folder the command
// stays in (projectRoot).
func verifyTarget(arg, id string) (*verify.Target, string, error) {
	dirs, err := statusDirs(vfs.OS, arg)
	if err != nil {
		return nil, "", err
	}
	var found []*verify.Target
	var why []string
	for _, dir := range dirs {
		t, err := loadTarget(dir, id)
		if t != nil || err != nil && !errors.Is(err, errNoCriterion) {
			if err != nil {
				why = append(why, err.Error())
				continue
			}
			found = append(found, t)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], projectRoot(found[0].Dir, true), nil
	case len(found) > 1:
		var names []string
		for _, t := range found {
			names = append(names, t.Dir)
		}
		return nil, "", fmt.Errorf("%d charters have %s; pick one with --charter:\n  %s", len(found), id, strings.Join(names, "\n  "))
	case len(why) > 0:
		return nil, "", errors.New(strings.Join(why, "\n"))
	}
	return nil, "", fmt.Errorf("no charter under %s has a criterion %s", arg, id)
}

var errNoCriterion = errors.New("no such criterion")

// loadTarget reads criterion id of the charter folder dir from the disk;
// errNoCriterion when the charter has none of that id.
func loadTarget(dir, id string) (*verify.Target, error) {
	if analysis.PiCharterDir(filepath.Join(dir, "x")) != "" {
		d := pi.LoadDir(vfs.OS, dir)
		if d.Criteria == nil || d.Criteria.Lookup(id) == nil {
			return nil, errNoCriterion
		}
		return verify.PiTarget(d, id)
	}
	d := charterfile.LoadDir(vfs.OS, dir)
	if d.CharterSrc == nil {
		return nil, errNoCriterion
	}
	if d.Charter.Criterion(id) == nil {
		return nil, errNoCriterion
	}
	return verify.ChartersTarget(d, id)
}

// verifyRecord records a finished run as charter.verify does: a VAL's
// evidence through record.Record, a .charters criterion's Status line
// written into charter.md (if unchanged since it was read).
func verifyRecord(t *verify.Target, res *verify.Result) (recorded, artifact string, err error) {
	if t.Criterion != nil {
		ctx, stop := context.WithTimeout(context.Background(), time.Minute)
		defer stop()
		r, err := record.Record(ctx, t.Dir, []record.Entry{res.PiEntry(t.Criterion, t.Verification)}, record.Options{Now: time.Now()})
		if err != nil {
			return "", "", err
		}
		w := r.Entries[0]
		return filepath.Join(r.Dir, filepath.FromSlash(w.Path)), filepath.Join(r.Dir, filepath.FromSlash(w.Artifacts[0])), nil
	}
	now, err := loadTarget(t.Dir, t.ID)
	if err != nil {
		return "", "", err
	}
	rel, err := verify.ChartersArtifact(t.Dir, t.ID, res)
	if err != nil {
		return "", "", err
	}
	artifact = filepath.Join(t.Dir, filepath.FromSlash(rel))
	fix, err := res.ChartersFix(now.Charter, t.ID, t.Verification, rel)
	if err == nil {
		err = verify.WriteCharter(t.Dir, t.CharterPath, now.Text, fix)
	}
	if err != nil {
		return "", artifact, fmt.Errorf("%v (the output is in %s)", err, displayPath(artifact))
	}
	return t.CharterPath, artifact, nil
}
