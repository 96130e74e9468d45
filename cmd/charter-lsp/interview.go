package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/interview"
)

// runInterview prints the next interview action for an rp1 charter as JSON;
// with --apply it also writes that action into the file, so the interview
// runs from a shell: run, answer in the file, run again.
func runInterview(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("interview", flag.ContinueOnError)
	fl.SetOutput(stderr)
	mode := fl.String("mode", "", "interview mode: CREATE, UPDATE or RESUME (default: detected from the file)")
	budget := fl.Int("budget", interview.DefaultBudget, "question budget")
	apply := fl.Bool("apply", false, "write the action into the file (append the question, record the skip, or finish the charter)")
	finish := fl.Bool("finish", false, "finish the interview now (needs problem and users covered)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: charter-lsp interview CHARTER.md [--mode CREATE|UPDATE|RESUME] [--budget N] [--apply] [--finish]")
		fmt.Fprintln(stderr, "\nPrints the next interview action as JSON (rp1's StatelessAgentResponse).")
		fmt.Fprintln(stderr, "Exit status: 0 fine, 1 an error response, 2 usage or I/O error.")
		fmt.Fprintln(stderr, "\nFlags:")
		fl.PrintDefaults()
	}
	paths, code, ok := parseFlags(fl, args)
	if !ok {
		return code
	}
	if len(paths) != 1 {
		fl.Usage()
		return 2
	}
	switch m := strings.ToUpper(*mode); m {
	case "", interview.ModeCreate, interview.ModeUpdate, interview.ModeResume:
		*mode = m
	default:
		fmt.Fprintf(stderr, "charter-lsp interview: unknown mode %q (want CREATE, UPDATE or RESUME)\n", *mode)
		return 2
	}
	if *budget <= 0 {
		fmt.Fprintf(stderr, "charter-lsp interview: --budget must be positive\n")
		return 2
	}
	path := paths[0]

	text, err := vfs.OS.ReadFile(path) // never blocks on a FIFO, bounded in size
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "charter-lsp interview: %v\n", err)
		return 2
	}
	now := time.Now()
	opts := interview.Options{Mode: *mode, Budget: *budget, Now: now, FinishNow: *finish, Path: path}
	r := interview.Next(text, exists, opts)

	if *apply {
		// A skip is recorded and the interview asked again, until it yields
		// a question, a success or an error; each skip closes a section, so
		// this ends.
		for i := 0; i < 2*len(interview.Topics)+1; i++ {
			plan, err := interview.PlanFor(text, r, now)
			if err != nil {
				fmt.Fprintf(stderr, "charter-lsp interview: %v\n", err)
				return 2
			}
			if len(plan.Edits) == 0 {
				break
			}
			if !exists && r.Mode != interview.ModeCreate {
				fmt.Fprintf(stderr, "charter-lsp interview: %s does not exist (only CREATE creates a charter)\n", path)
				return 2
			}
			text = interview.Apply(text, plan.Edits)
			if err := atomicfile.Write(path, text, 0o644); err != nil {
				fmt.Fprintf(stderr, "charter-lsp interview: %v\n", err)
				return 2
			}
			exists = true
			fmt.Fprintf(stderr, "charter-lsp interview: %s\n", applied(r))
			if r.Type != interview.TypeSkip {
				break
			}
			opts.Mode = "" // the file now has a scratch pad: resume it
			r = interview.Next(text, exists, opts)
		}
	}

	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "charter-lsp interview: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s\n", out)
	if r.Type == interview.TypeError {
		return 1
	}
	return 0
}

// applied says on stderr what --apply wrote.
func applied(r interview.Response) string {
	switch r.Type {
	case interview.TypeNextQuestion:
		return fmt.Sprintf("asked Q%d (%s): write the answer after **Answer**: and run again", r.Metadata.QuestionNumber, r.Topic)
	case interview.TypeSkip:
		return fmt.Sprintf("recorded Q%d (%s) as skipped", r.Metadata.QuestionNumber, r.Topic)
	case interview.TypeSuccess:
		return "finished the charter: sections written, scratch pad removed, status Complete"
	}
	return "no change"
}
