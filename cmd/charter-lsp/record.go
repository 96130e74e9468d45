package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/record"
)

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func runRecord(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var e record.Entry
	var artifacts stringList
	var details, charterArg, now string
	fs.StringVar(&e.Outcome, "outcome", "", "pass, fail or partial (required)")
	fs.StringVar(&e.Summary, "summary", "", "what was observed (required)")
	fs.StringVar(&e.Because, "because", "", "why this outcome is right (required for manual evidence)")
	fs.StringVar(&e.Source, "source", "manual", "manual, verifier or subagent")
	fs.StringVar(&e.RecordedBy, "recorded-by", "user", "who records: user, agent:root, subagent:<agent>:<session>")
	fs.StringVar(&e.FeatureID, "feature", "", "feature or milestone id: records under work/<id>/ instead of work/_charter/")
	fs.Var(&artifacts, "artifact", "an artifact path (repeatable)")
	fs.StringVar(&details, "details", "", `a JSON object of details, e.g. '{"command":"go test ./...","exitCode":0}'`)
	fs.StringVar(&charterArg, "charter", ".", "the charter directory, or a project folder holding exactly one charter")
	fs.StringVar(&now, "now", "", "record time, RFC 3339 (for tests; default: now)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: charter-lsp record VAL-ID --outcome pass|fail|partial --summary TEXT [--because TEXT] [flags]")
		fmt.Fprintln(stderr, "\nRecords evidence as pi-charter's charter_record action=evidence does: a new")
		fmt.Fprintln(stderr, "work/<feature or _charter>/evidence/<stamp>/evidence.json and criterion-state.json.")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	ids, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(ids) != 1 {
		fmt.Fprintln(stderr, "charter-lsp record: give exactly one VAL id")
		fs.Usage()
		return 2
	}
	e.CriterionID = ids[0]
	e.Artifacts = artifacts
	if details != "" {
		if err := json.Unmarshal([]byte(details), &e.Details); err != nil || e.Details == nil {
			fmt.Fprintf(stderr, "charter-lsp record: --details must be a JSON object\n")
			return 2
		}
	}
	var opts record.Options
	if now != "" {
		t, err := time.Parse(time.RFC3339Nano, now)
		if err != nil {
			fmt.Fprintf(stderr, "charter-lsp record: --now: %v\n", err)
			return 2
		}
		opts.Now = t
	}
	dir, err := onePiCharter(charterArg)
	if err != nil {
		fmt.Fprintf(stderr, "charter-lsp record: %v\n", err)
		return 2
	}
	res, err := record.Record(dir, []record.Entry{e}, opts)
	if err != nil {
		fmt.Fprintf(stderr, "charter-lsp record: %v\n", err)
		return 1
	}
	for _, w := range res.Entries {
		fmt.Fprintf(stdout, "recorded %s %s in %s\n", w.CriterionID, w.Outcome, displayPath(filepath.Join(res.Dir, filepath.FromSlash(w.Path))))
	}
	fmt.Fprintf(stdout, "updated %s\n", displayPath(filepath.Join(res.Dir, "criterion-state.json")))
	return 0
}
