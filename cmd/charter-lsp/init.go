package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/interview"
)

const initAbout = `Starts charter-lsp in a project: writes DIR/.charter-lsp.jsonc (default DIR: the current folder)
with every setting at its default, commented, unless one is there; with --charter, also a new charter
of the family picked, in its current format:
  rp1       .rp1/context/charter.md: rp1's skeleton charter (seven regions, each _TBD_; its current
            format). The seed's scratch-pad interview starts instead with
            'charter-lsp interview .rp1/context/charter.md --mode CREATE --apply'.
  charters  .charters/<YYYYMMDD-HHMMSS>-<slug>/: pi-charter's current charter (# Objective, comment-only
            ## References and ## Scope; state.json; events.jsonl with charter_created). Needs --objective.
  pi        .pi/charters/<slug>/: a pi-charter v3 charter (charter.md, criteria.md, state.json). Needs
            --objective.
Nothing that exists is overwritten.

Exit status: 0 written; 1 there was nothing to write (the configuration and the charter exist);
2 a usage or I/O error.`

func runInit(e *env, args []string) int {
	fl := newFlags("init", "[DIR] [--charter rp1|charters|pi] [--objective TEXT]", initAbout, e)
	family := newChoice("", "rp1", "charters", "pi")
	fl.Var(family, "charter", "also create a new charter of this `family`: rp1 (the skeleton), charters (.charters/<id>/) or pi (.pi/charters/<id>/)")
	objective := fl.String("objective", "", "the new charter's objective, one line of `text` (charters and pi; rp1 takes the project's name from DIR)")
	name := fl.String("name", "", "the pi charter's folder `id` (default: the objective as a slug)")
	nowFlag := fl.String("now", "", "date the new charter at this RFC 3339 `time` (for tests; default: now)")
	rest, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(rest) > 1 {
		return fl.usageError("give at most one DIR, not %d", len(rest))
	}
	dir := "."
	if len(rest) == 1 {
		dir = rest[0]
	}
	switch {
	case (family.value == "charters" || family.value == "pi") && strings.TrimSpace(*objective) == "":
		return fl.usageError("--charter %s needs --objective: what the charter is for, in one line", family.value)
	case family.value == "rp1" && *objective != "":
		return fl.usageError("--objective is for --charter charters and pi; an rp1 charter's Vision is the interview's first question")
	case *name != "" && family.value != "pi":
		return fl.usageError("--name names a pi charter's folder: give --charter pi")
	case *name != "" && charterfile.Slug(*name) != *name:
		return fl.usageError("--name %q: use lower-case letters, digits and '-'", *name)
	}
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339Nano, *nowFlag)
		if err != nil {
			return fl.usageError("--now %q: want an RFC 3339 time such as 2026-11-14T09:30:00Z", *nowFlag)
		}
		now = t
	}
	ps, abs, err := projectsOf(dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "charter-lsp init: %s: %s\n", dir, readError(err))
		return 2
	}
	in := ps.writer(filepath.Join(abs, analysis.ConfigFileNames[0]))
	wrote := 0
	cfg := filepath.Join(abs, analysis.ConfigFileNames[0])
	if existing := analysis.FindConfigFile(ps.fs(), abs); existing != "" && filepath.Dir(existing) == abs {
		fmt.Fprintf(e.stdout, "kept %s: it is there already\n", displayPath(existing))
	} else {
		if err := in.Create(cfg, configTemplate(), 0o644); err != nil {
			fmt.Fprintf(e.stderr, "charter-lsp init: %v\n", err)
			return 2
		}
		fmt.Fprintf(e.stdout, "wrote %s\n", displayPath(cfg))
		wrote++
	}
	if family.value != "" {
		files, err := newCharter(abs, family.value, strings.TrimSpace(*objective), *name, now, ps.fs().ReadDir)
		if err != nil {
			fmt.Fprintf(e.stderr, "charter-lsp init: %v\n", err)
			return 1
		}
		for _, f := range files {
			if err := createFile(in, f.path, f.content); err != nil {
				fmt.Fprintf(e.stderr, "charter-lsp init: %v\n", err)
				return 2
			}
			fmt.Fprintf(e.stdout, "wrote %s\n", displayPath(f.path))
			wrote++
		}
		fmt.Fprintf(e.stdout, "\nNext: %s\n", nextAfterInit(family.value, files[0].path))
	}
	if wrote == 0 {
		return 1
	}
	return 0
}

type newFile struct {
	path    string
	content []byte
}

// newCharter lays out a new charter of family under the project root.
func newCharter(root, family, objective, name string, now time.Time, readDir func(string) ([]fs.DirEntry, error)) ([]newFile, error) {
	switch family {
	case "rp1":
		path := filepath.Join(root, ".rp1", "context", "charter.md")
		return []newFile{{path, interview.NewSkeleton(interview.ProjectName(path), now)}}, nil
	case "charters":
		parent := filepath.Join(root, ".charters")
		taken := map[string]bool{}
		entries, _ := readDir(parent)
		for _, e := range entries {
			taken[e.Name()] = true
		}
		id := charterfile.NewID(now, objective, func(n string) bool { return taken[n] })
		d := filepath.Join(parent, id)
		return []newFile{
			{filepath.Join(d, charterfile.CharterFile), charterfile.NewCharter(objective)},
			{filepath.Join(d, charterfile.StateFile), charterfile.NewState(id, objective, now)},
			{filepath.Join(d, charterfile.EventsFile), charterfile.NewEvents(id, objective, now)},
		}, nil
	case "pi":
		if name == "" {
			name = charterfile.Slug(objective)
		}
		d := filepath.Join(root, ".pi", "charters", name)
		if _, err := readDir(d); err == nil {
			return nil, fmt.Errorf("%s exists: give another --name", displayPath(d))
		}
		return []newFile{
			{filepath.Join(d, "charter.md"), pi.NewCharter(objective, objective)},
			{filepath.Join(d, "criteria.md"), pi.NewCriteria()},
			{filepath.Join(d, "state.json"), pi.NewState(name, objective, objective, now)},
		}, nil
	}
	return nil, fmt.Errorf("unknown family %q", family)
}

// createFile creates path and the folders it needs, never replacing a file.
func createFile(in atomicfile.Dir, path string, content []byte) error {
	if _, err := in.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	err := in.Create(path, content, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: not overwritten", displayPath(path))
	}
	return err
}

func nextAfterInit(family, first string) string {
	p := displayPath(first)
	switch family {
	case "rp1":
		return "answer the interview: 'charter-lsp interview " + p + "' prints the first question (Vision), '--answer TEXT' writes it; or open the file in your editor (Ask next interview question)."
	case "pi":
		return "write the VALs in " + displayPath(filepath.Join(filepath.Dir(first), "criteria.md")) + ", then 'charter-lsp check'."
	}
	return "write the Objective out in " + p + ", then 'charter-lsp check'."
}

// configTemplate is the .charter-lsp.jsonc init writes: every key at its
// default, explained.
func configTemplate() []byte {
	dirs := make([]string, len(analysis.DefaultSourceDirs))
	for i, d := range analysis.DefaultSourceDirs {
		dirs[i] = strconv.Quote(d)
	}
	return []byte(`{
  // charter-lsp's configuration: check, status and the language server read it for every
  // charter below this folder. Every key is optional; these are the defaults.
  "$schema": "` + analysis.SchemaURL + `",
  // a code's severity ("error", "warning", "information", "hint" or "off"),
  // e.g. "stale-evidence": "error"; 'charter-lsp rules' lists the codes
  "severity": {},
  // folders whose newest change makes fresh-required evidence stale (relative to the project)
  "sourceDirs": [` + strings.Join(dirs, ", ") + `],
  // "git": in a git work tree the last commit touching sourceDirs, or the file time of a file
  // changed since; "mtime": the newest file time, as pi-charter reads it
  "freshness": "` + string(analysis.Config{}.FreshnessMode()) + `",
  // the interview's question budget
  "questionBudget": ` + strconv.Itoa(analysis.DefaultQuestionBudget) + `,
  // the language server only: the delay before diagnostics after an edit, in milliseconds
  "debounceMs": ` + strconv.Itoa(analysis.DefaultDebounceMs) + `
}
`)
}
