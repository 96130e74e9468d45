package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/interview/agent"
)

const interviewAbout = `Prints the next interview action as JSON: rp1's StatelessAgentResponse for a scratch-pad charter,
the finalizer's {status, artifact, gaps, warnings} for a skeleton charter. A new charter starts in
the format the user picks: 'charter-lsp init --charter rp1' writes rp1's skeleton (its current
format); 'interview NEW.md --mode CREATE --apply' starts the seed's scratch-pad interview.

Exit status: 0 fine, 1 an error response (or a finalizer answer that breaks the contract), 2 usage or I/O error.`

// runInterview prints the next interview action for an rp1 charter as JSON;
// with --apply it also writes that action into the file, so the interview
// runs from a shell: run, answer in the file, run again.
func runInterview(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fl := newFlags("interview", "CHARTER.md [--mode CREATE|UPDATE|RESUME] [--budget N] [--apply] [--finish] [--agent COMMAND]\n"+
		"       charter-lsp interview CHARTER.md --contract finalizer [--apply] [--answer TEXT [--region NAME]] [--check-answer FILE]", interviewAbout, e)
	mode := fl.String("mode", "", "interview `mode`: CREATE, UPDATE or RESUME (default: detected from the file; CREATE on a new file starts rp1's scratch-pad interview, as the seed's contract does)")
	budget := fl.Int("budget", interview.DefaultBudget, "the question budget: ask at most `N` questions")
	apply := fl.Bool("apply", false, "write the action into the file (append the question, record the skip, or finish the charter)")
	finish := fl.Bool("finish", false, "finish the interview now (needs problem and users covered)")
	contract := fl.String("contract", "", "the `contract`: stateless (scratch-pad charters: rp1's StatelessAgentResponse) or finalizer (skeleton charters: {status, artifact, gaps, warnings}); default: finalizer for a skeleton charter, else stateless")
	answer := fl.String("answer", "", "finalizer contract: write this answer `text` into the first gap region (or --region), set **Status**, print the new state")
	region := fl.String("region", "", "finalizer contract, with --answer: the region to write, by `name`, e.g. \"Vision\" or \"Scope Guardrails / Won't\"")
	checkAnswer := fl.String("check-answer", "", "finalizer contract: check a finalizer's raw answer saved in `FILE` against rp1's contract and the charter")
	agentCmd := fl.String("agent", "", "run this interview agent (rp1's stateless interviewer, e.g. an LLM wrapper) as `COMMAND` instead of the built-in engine; default $"+agent.EnvCommand+"; '' turns it off")
	agentTimeout := fl.String("agent-timeout", "", "give the interview agent at most `DURATION` per call (90s, 2m; default $"+agent.EnvTimeout+", else "+agent.DefaultTimeout.String()+")")
	fl.writing("apply", "answer")
	fl.values["mode"] = []string{interview.ModeCreate, interview.ModeUpdate, interview.ModeResume}
	fl.values["contract"] = []string{contractStateless, contractFinalizer}
	paths, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(paths) != 1 {
		return fl.usageError("give one CHARTER.md")
	}
	switch m := strings.ToUpper(*mode); m {
	case "", interview.ModeCreate, interview.ModeUpdate, interview.ModeResume:
		*mode = m
	default:
		termtext.Fprintf(stderr, "charter-lsp interview: unknown mode %q (want CREATE, UPDATE or RESUME)\n", *mode)
		return 2
	}
	if *budget <= 0 {
		termtext.Fprintf(stderr, "charter-lsp interview: --budget must be positive\n")
		return 2
	}
	path := paths[0]
	ag, err := agentConfig(fl.FlagSet, *agentCmd, *agentTimeout)
	if err != nil {
		termtext.Fprintf(stderr, "charter-lsp interview: %v\n", err)
		return 2
	}
	switch *contract {
	case "", contractStateless, contractFinalizer:
	default:
		termtext.Fprintf(stderr, "charter-lsp interview: unknown --contract %q (want stateless or finalizer)\n", *contract)
		return 2
	}

	// Nothing outside the charter's project is read or written (a .rp1
	// linked to another tree); reads never block on a FIFO and are bounded.
	ps, _, err := projectsOf(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		termtext.Fprintf(stderr, "charter-lsp interview: %v\n", err)
		return 2
	}
	text, err := ps.fs().ReadFile(path)
	exists := err == nil
	if why := notInterviewed(analysis.Classify(path, text)); why != "" {
		termtext.Fprintf(stderr, "charter-lsp interview: %s is %s, not an rp1 charter: it has no interview; %s\n", path, why, piNext(path))
		return 2
	}
	var parsed *rp1.Charter // text's parse, when one was needed here
	if *contract == "" && exists {
		parsed = rp1.Parse(text)
		if parsed.Format == rp1.FormatSkeleton {
			*contract = contractFinalizer
		}
	}
	if *contract == contractFinalizer {
		return runFinalizer(finalizerRun{path: path, in: ps.writer(path), text: text, parsed: parsed, readErr: err, apply: *apply, mode: *mode,
			answer: *answer, region: *region, checkAnswer: *checkAnswer, agent: ag}, stdout, stderr)
	}
	if *answer != "" || *region != "" || *checkAnswer != "" {
		fmt.Fprintln(stderr, "charter-lsp interview: --answer, --region and --check-answer belong to --contract finalizer (skeleton charters)")
		return 2
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		termtext.Fprintf(stderr, "charter-lsp interview: %s\n", readError(err))
		return 2
	}
	now := time.Now()
	opts := interview.Options{Mode: *mode, Budget: *budget, Now: now, FinishNow: *finish, Path: path}
	// With an agent the CLI is the seed's caller: the agent decides, the
	// engine writes; Ctrl-C stops the agent's whole process group.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	iv := interviewer(ag, stderr)
	next := interview.Builtin
	if iv != nil {
		next = iv.Next
	}
	var r interview.Response
	if !*apply {
		if r, err = next(ctx, text, exists, opts); err != nil {
			fmt.Fprintln(stderr, "charter-lsp interview: the interview agent was stopped")
			return 2
		}
	} else {
		// The same rule check uses: only an rp1 charter is interviewed in
		// place, unless the user says to create one here.
		if k := analysis.Classify(path, text); k != analysis.KindRP1Charter && *mode != interview.ModeCreate && interview.Next(text, exists, opts).Type != interview.TypeError {
			termtext.Fprintf(stderr, "charter-lsp interview: %s is not an rp1 charter (%s); --apply writes only into rp1 charters: pass --mode CREATE to start one in this file\n", path, notRP1Reason(k))
			return 2
		}
		// The next action carried out as the editor's does it: each skip
		// recorded, then the question asked or the charter finished.
		step, err := interview.AdvanceWith(ctx, text, exists, opts, next)
		if err != nil && ctx.Err() != nil {
			fmt.Fprintln(stderr, "charter-lsp interview: the interview agent was stopped; nothing was written")
			return 2
		}
		if err != nil {
			termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
			return 2
		}
		if len(step.Applied) > 0 {
			if !exists && step.Applied[0].Mode != interview.ModeCreate {
				termtext.Fprintf(stderr, "charter-lsp interview: %s does not exist (only CREATE creates a charter)\n", path)
				return 2
			}
			in := ps.writer(path)
			if !exists {
				// rp1 keeps the charter in .rp1/context/: create the folders.
				if _, err := in.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
					return 2
				}
			}
			if err := in.Write(path, step.Text, 0o644); err != nil {
				termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
				return 2
			}
			for _, a := range step.Applied {
				termtext.Fprintf(stderr, "charter-lsp interview: %s\n", applied(a, step.Text))
			}
			if last := step.Applied[len(step.Applied)-1]; iv != nil && iv.Failed == nil && last.Type == interview.TypeSuccess {
				reportProblems(iv, path, step.Text, stderr)
			}
		}
		r = step.Response
	}
	if iv != nil && iv.Failed != nil {
		termtext.Fprintf(stderr, "charter-lsp interview: %s\n", iv.Fallback())
	}

	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
		return 2
	}
	fmt.Fprintf(stdout, "%s\n", termtext.JSON(out))
	if r.Type == interview.TypeError {
		return 1
	}
	return 0
}

// agentConfig is the interview agent: --agent when given (” turns it
// off), else $CHARTER_LSP_AGENT; --agent-timeout over $CHARTER_LSP_AGENT_TIMEOUT.
func agentConfig(fl *flag.FlagSet, cmd, timeout string) (agent.Config, error) {
	c, err := agent.FromEnv(nil)
	if err != nil {
		return c, err
	}
	fl.Visit(func(f *flag.Flag) {
		if f.Name == "agent" {
			c.Command, c.From = strings.TrimSpace(cmd), "--agent"
		}
	})
	if timeout != "" {
		if c.Timeout, err = agent.ParseTimeout(timeout); err != nil {
			return c, fmt.Errorf("--agent-timeout: %v", err)
		}
	}
	return c, nil
}

// interviewer is the agent's caller, saying on stderr when a call starts,
// or nil without an agent.
func interviewer(c agent.Config, stderr io.Writer) *agent.Interviewer {
	if !c.Enabled() {
		return nil
	}
	return &agent.Interviewer{Config: c, Progress: func(p agent.Phase, elapsed, timeout time.Duration) {
		switch p {
		case agent.Started:
			fmt.Fprintf(stderr, "charter-lsp interview: asking the interview agent (%s)… (Ctrl-C stops it; it is given %s)\n", c.Name(), timeout)
		case agent.Ended:
			fmt.Fprintf(stderr, "charter-lsp interview: %s took %.1fs\n", c.Name(), elapsed.Seconds())
		}
	}}
}

// reportProblems says what check reports on a charter an agent finished
// (its content is written verbatim, then checked).
func reportProblems(iv *agent.Interviewer, path string, text []byte, stderr io.Writer) {
	ds := agent.Problems(text, path, analysis.Config{})
	for _, d := range ds {
		fmt.Fprintf(stderr, "%s:%d:%d %s %s %s\n", termtext.Escape(d.File), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity, d.Code, termtext.Escape(d.Message))
	}
	if len(ds) > 0 {
		fmt.Fprintf(stderr, "charter-lsp interview: check reports %d problem(s) in what %s wrote\n", len(ds), iv.Config.Name())
	}
}

// applied says on stderr what --apply wrote; text is the file written.
func applied(r interview.Response, text []byte) string {
	switch r.Type {
	case interview.TypeNextQuestion:
		return fmt.Sprintf("asked Q%d (%s): write the answer after **Answer**: and run again", r.Metadata.QuestionNumber, r.Topic)
	case interview.TypeSkip:
		return fmt.Sprintf("recorded Q%d (%s) as skipped", r.Metadata.QuestionNumber, r.Topic)
	case interview.TypeSuccess:
		// Finish sets Complete only when no gap is left (a budget spent
		// with gaps stays Draft): say what the file holds.
		status := "unset"
		if f := rp1.Parse(text).Header("Status"); f != nil {
			status = f.Value
		}
		msg := "finished the charter: sections written, scratch pad removed, status " + status
		if r.Title != "" {
			msg += ", titled " + strconv.Quote(r.Title)
		}
		if g := r.Metadata.GapsRemaining; len(g) > 0 {
			names := make([]string, len(g))
			for i, id := range g {
				names[i] = string(id)
			}
			msg += fmt.Sprintf(" (gaps left: %s)", strings.Join(names, ", "))
		}
		return msg
	}
	return "no change"
}

// notInterviewed says what a pi-charter file is ("" for any other file):
// the interview is rp1's, and pi-charter's files have none.
func notInterviewed(k analysis.Kind) string {
	switch k {
	case analysis.KindChartersCharter:
		return "a pi-charter charter (.charters/<id>/charter.md, ADR-0014 on)"
	case analysis.KindChartersState, analysis.KindChartersEvents:
		return "a pi-charter charter's " + map[analysis.Kind]string{analysis.KindChartersState: "state.json", analysis.KindChartersEvents: "events.jsonl"}[k]
	case analysis.KindPiCharter, analysis.KindCriteria, analysis.KindReport, analysis.KindState, analysis.KindCriterionState, analysis.KindEvidence:
		return "a pi-charter v3 file (.pi/charters/<id>/)"
	}
	return ""
}

// piNext says what to run on a pi-charter file instead.
func piNext(path string) string {
	return fmt.Sprintf("see `charter-lsp status %s`, or `charter-lsp migrate %s` for an older grammar", filepath.Dir(path), filepath.Dir(path))
}

// notRP1Reason says why Classify did not take a file for an rp1 charter.
func notRP1Reason(k analysis.Kind) string {
	switch k {
	case analysis.KindOtherCharter:
		return "a charter.md with none of rp1's sections, title or scratch pad"
	case analysis.KindNone:
		return "no \"# Project Charter\" title, rp1 section heading or scratch pad, and not named charter.md"
	}
	return "a " + string(k) + " file"
}

const (
	contractStateless = "stateless"
	contractFinalizer = "finalizer"
)

// finalizerRun is one run of the finalizer contract.
type finalizerRun struct {
	path        string
	in          atomicfile.Dir // where the charter may be written
	text        []byte
	parsed      *rp1.Charter // text's parse, or nil
	readErr     error
	apply       bool
	mode        string
	answer      string
	region      string
	checkAnswer string
	agent       agent.Config
}

// runFinalizer speaks rp1's finalizer contract for a skeleton charter
// (FORMATS.md §2.5): it prints {"status","artifact","gaps","warnings"} as
// one raw JSON object, keys in that order; --apply creates a missing charter
// from the template or corrects its status, --answer writes an answer into
// the first gap region, --check-answer checks what a finalizer answered.
func runFinalizer(f finalizerRun, stdout, stderr io.Writer) int {
	fail := func(why string) int {
		r := rp1.FinalizerResponse{Status: rp1.FinalizerError, Artifact: f.path, Warnings: []string{why}}
		fmt.Fprintf(stdout, "%s\n", termtext.JSON(rp1.MarshalFinalizer(r)))
		return 1
	}
	write := func(text []byte) error {
		if _, err := f.in.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		return f.in.Write(f.path, text, 0o644)
	}
	text, exists := f.text, f.readErr == nil
	// The charter is parsed once for each text it has (a 1 MB charter
	// took four parses for one answer); setText forgets the parse.
	ch := f.parsed
	charter := func() *rp1.Charter {
		if ch == nil {
			ch = rp1.Parse(text)
		}
		return ch
	}
	setText := func(t []byte) { text, ch = t, nil }
	switch {
	case f.readErr != nil && !errors.Is(f.readErr, fs.ErrNotExist):
		return fail(fmt.Sprintf("the charter cannot be read: %v", f.readErr))
	case !exists && !f.apply && f.answer == "":
		return fail("the charter does not exist; --apply creates it from rp1's template")
	case !exists:
		setText(interview.NewSkeleton(interview.ProjectName(f.path), time.Now()))
		if err := write(text); err != nil {
			termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
			return 2
		}
		termtext.Fprintf(stderr, "charter-lsp interview: created %s from rp1's charter template\n", f.path)
		exists = true
	case (f.apply || f.answer != "") && analysis.Classify(f.path, text) != analysis.KindRP1Charter && f.mode != interview.ModeCreate:
		termtext.Fprintf(stderr, "charter-lsp interview: %s is not an rp1 charter; --apply and --answer write only into rp1 charters\n", f.path)
		return 2
	}
	if why := notText(text); why != "" {
		return fail("the charter is not a markdown text file: " + why)
	}

	if f.answer == "" && f.apply {
		// A charter of the scratch-pad generation is not the finalizer's:
		// Finalize says so (check reads it by its five sections, so the two
		// give one verdict), and --apply writes nothing into it.
		if r := rp1.Finalize(charter(), f.path); r.Status == rp1.FinalizerError {
			fmt.Fprintf(stdout, "%s\n", termtext.JSON(rp1.MarshalFinalizer(r)))
			return 1
		}
	}
	if f.answer != "" {
		id := rp1.RegionID(f.region)
		if id == "" {
			st := interview.NextRegionOf(charter())
			if st.Region == "" {
				fmt.Fprintln(stderr, "charter-lsp interview: no region is a gap; name one with --region to add to it")
				return 2
			}
			id = st.Region
		}
		plan, err := interview.AnswerRegion(text, id, f.answer)
		if err != nil {
			termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
			return 2
		}
		setText(interview.Apply(text, plan.Edits))
		if err := write(text); err != nil {
			termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
			return 2
		}
		termtext.Fprintf(stderr, "charter-lsp interview: wrote the answer into %q\n", id)
	} else if f.apply {
		if plan := interview.CorrectStatus(text); len(plan.Edits) > 0 {
			setText(interview.Apply(text, plan.Edits))
			if err := write(text); err != nil {
				termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
				return 2
			}
			fmt.Fprintln(stderr, "charter-lsp interview: corrected **Status** to what the gaps call for")
		}
	}

	r := rp1.Finalize(charter(), f.path)
	if f.checkAnswer != "" {
		return checkFinalizerAnswer(f.checkAnswer, r, stdout, stderr)
	}
	if iv := interviewer(f.agent, stderr); iv != nil && r.Status != rp1.FinalizerError && len(r.Gaps) == 0 {
		// rp1's optional finalizer runs once a fresh read shows no gap.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		got, err := iv.Finalize(ctx, text, f.path)
		if err != nil {
			fmt.Fprintln(stderr, "charter-lsp interview: the interview agent was stopped")
			return 2
		}
		if iv.Failed != nil {
			termtext.Fprintf(stderr, "charter-lsp interview: %s\n", iv.Fallback())
		}
		r = got
	}
	fmt.Fprintf(stdout, "%s\n", termtext.JSON(rp1.MarshalFinalizer(r)))
	if st := interview.NextRegionOf(charter()); st.Region != "" && r.Status != rp1.FinalizerError {
		termtext.Fprintf(stderr, "charter-lsp interview: next: %s — %s (answer with --answer TEXT)\n", st.Region, st.Question)
	}
	if r.Status == rp1.FinalizerError {
		return 1
	}
	return 0
}

// checkFinalizerAnswer checks a finalizer's saved answer against the
// contract and what the charter calls for, printing findings as check does.
func checkFinalizerAnswer(file string, want rp1.FinalizerResponse, stdout, stderr io.Writer) int {
	data, err := vfs.OS.ReadFile(file)
	if err != nil {
		termtext.Fprintf(stderr, "charter-lsp interview: %s\n", unprefixed(err))
		return 2
	}
	ds := rp1.CheckFinalizerAnswer(data, want)
	diag.Locate(ds, file, source.NewIndex(data))
	writeText(stdout, ds, false)
	if len(ds) > 0 {
		fmt.Fprintf(stderr, "charter-lsp interview: expected %s\n", termtext.JSON(rp1.MarshalFinalizer(want)))
		return 1
	}
	termtext.Fprintf(stderr, "charter-lsp interview: %s keeps rp1's finalizer contract and matches the charter\n", file)
	return 0
}

// notText says why a file cannot be a markdown charter, or "".
func notText(b []byte) string {
	switch {
	case bytes.IndexByte(b, 0) >= 0:
		return "it holds binary data (NUL bytes)"
	case !utf8.Valid(b):
		return "it is not UTF-8"
	}
	return ""
}

// unprefixed is err's message without the "interview: " the interview
// package starts its errors with, which the CLI's own prefix repeats.
func unprefixed(err error) string {
	return strings.TrimPrefix(err.Error(), "interview: ")
}
