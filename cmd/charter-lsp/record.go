package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/record"
)

const recordAbout = `Records evidence for one VAL as pi-charter's charter_record action=evidence does: a new
work/<feature or _charter>/evidence/<stamp>/evidence.json, and the VAL's entry in
criterion-state.json. Example:

  charter-lsp record VAL-EXP-002 --outcome pass --summary 'jest: streams large exports, 2 passed' \
    --source verifier --charter examples/pi-project

Manual evidence (the default --source) needs --because: why this outcome is right.

Exit status: 0 recorded; 1 the charter refused the record (not active); 2 a usage error (the
message names the flag) or an I/O error.`

func runRecord(e *env, args []string) int {
	fl := newFlags("record", "VAL-ID --outcome pass|fail|partial --summary TEXT [--because TEXT] [flags]", recordAbout, e)
	var en record.Entry
	var artifacts stringList
	var details, charterArg, now string
	outcome := newChoice("", pi.Names(pi.Outcomes)...)
	fl.Var(outcome, "outcome", "the `outcome`: pass, fail or partial (required)")
	fl.StringVar(&en.Summary, "summary", "", "one line of `text`: what was observed (required)")
	fl.StringVar(&en.Because, "because", "", "`text` saying why this outcome is right (required for manual evidence)")
	source := newChoice(string(pi.SourceManual), pi.Names(pi.Sources)...)
	fl.Var(source, "source", "`who` checked: manual (a person), verifier (a tool ran the VAL's verifier) or subagent")
	fl.StringVar(&en.RecordedBy, "recorded-by", "user", "`who` records: user, agent:root or subagent:<agent>:<session>")
	fl.StringVar(&en.FeatureID, "feature", "", "a milestone `id` of criteria.md: records under work/<id>/ instead of work/_charter/")
	fl.Var(&artifacts, "artifact", "an artifact `path` to list in the record (repeatable)")
	fl.StringVar(&details, "details", "", "a JSON `object` of details, e.g. '{\"command\":\"go test ./...\",\"exitCode\":0}'")
	fl.StringVar(&charterArg, "charter", ".", "the charter `dir`ectory, or a project folder holding exactly one charter")
	fl.StringVar(&now, "now", "", "record `time`, RFC 3339 (for tests; default: now)")
	ids, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	switch {
	case len(ids) == 0:
		return fl.usageError("give the VAL id to record, e.g. charter-lsp record VAL-EXP-002 --outcome pass --summary '…'")
	case len(ids) > 1:
		return fl.usageError("give one VAL id, not %d (%s): record them one after the other", len(ids), strings.Join(ids, " "))
	case outcome.value == "":
		return fl.usageError("--outcome is required: pass, fail or partial")
	case strings.TrimSpace(en.Summary) == "":
		return fl.usageError("--summary is required: say what was observed")
	case pi.Source(source.value) == pi.SourceManual && strings.TrimSpace(en.Because) == "":
		return fl.usageError("manual evidence needs a reason: add --because '<why this outcome is right>', or --source verifier when a tool checked it (subagent when an agent did)")
	}
	en.CriterionID, en.Outcome, en.Source = ids[0], outcome.value, source.value
	en.Artifacts = artifacts
	if details != "" {
		if err := json.Unmarshal([]byte(details), &en.Details); err != nil || en.Details == nil {
			return fl.usageError("--details must be a JSON object, e.g. '{\"exitCode\":0}'")
		}
	}
	var opts record.Options
	if now != "" {
		t, err := time.Parse(time.RFC3339Nano, now)
		if err != nil {
			return fl.usageError("--now %q: want an RFC 3339 time such as 2026-11-14T09:30:00Z", now)
		}
		opts.Now = t
	}
	dir, err := onePiCharter(charterArg)
	if err != nil {
		return fl.usageError("--charter: %v", err)
	}
	// Waiting for another writer's lock ends with Ctrl-C, or after a
	// minute: a record that never returns would hang an agent's shell.
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	res, err := record.Record(ctx, dir, []record.Entry{en}, opts)
	var ee *record.EntryError
	switch {
	case errors.As(err, &ee):
		return fl.usageError("%s", entryMessage(ee))
	case err != nil:
		termtext.Fprintf(e.stderr, "charter-lsp record: %v\n", err)
		return 1
	}
	for _, w := range res.Entries {
		termtext.Fprintf(e.stdout, "recorded %s %s in %s\n", w.CriterionID, w.Outcome, displayPath(filepath.Join(res.Dir, filepath.FromSlash(w.Path))))
	}
	termtext.Fprintf(e.stdout, "updated %s\n", displayPath(filepath.Join(res.Dir, "criterion-state.json")))
	return 0
}

// entryMessage says what is wrong with the entry in the CLI's words: the
// flag that fixes it, not the entry's field.
func entryMessage(ee *record.EntryError) string {
	switch ee.Field {
	case "criterionId":
		return ee.Msg
	case "because":
		return "manual evidence needs a reason: add --because '<why this outcome is right>', or --source verifier when a tool checked it"
	case "featureId":
		return "--feature: " + ee.Msg
	}
	return "--" + ee.Field + ": " + ee.Msg
}
