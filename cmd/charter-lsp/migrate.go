package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/internal/shellword"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/migrate"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// migrateRP1 turns an rp1 scratch-pad charter into the skeleton format
// (FORMATS.md §4, rp1.Migrate: answers placed in their regions, Vision
// left _TBD_, the scratch pad removed once every answer is placed). It
// returns the new text of the same file and what it did; errNothingToDo
// for a skeleton charter with nothing to place.
func migrateRP1(src []byte, now time.Time) (text []byte, notes []string, err error) {
	m, err := rp1.Migrate(src, rp1.MigrateOptions{Now: now})
	if err != nil {
		return nil, nil, err
	}
	if !m.Changed() {
		return nil, nil, fmt.Errorf("%w: the charter is in rp1's skeleton format already", migrate.ErrNothingToDo)
	}
	return m.New, m.Notes(), nil
}

const migrateAbout = `Turns an older charter into one in the current grammar. PATH is a charter folder or a file in it:
  .pi/charters/<id>/ (pi-charter v3) or .charters/<id>/ in the file-interface grammar (ADR-0014/0015)
  become a new .charters/<new-id>/ folder beside the old one, which is left as it is;
  a phases or Objective charter needs nothing;
  an rp1 charter.md of the scratch-pad era is rewritten in place in rp1's skeleton format.
Without --write it prints the files it would write and changes nothing.

Exit status: 0 done (or nothing to do), 1 migration refused, 2 usage or I/O error.`

func runMigrate(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fl := newFlags("migrate", "PATH [--write]", migrateAbout, e)
	write := fl.Bool("write", false, "create the new charter (default: print what would be written and change nothing)")
	fl.alias("w", "write")
	fl.writing("write")
	nowFlag := fl.String("now", "", "date the new charter at this RFC 3339 `time` (default: now)")
	paths, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(paths) != 1 {
		return fl.usageError("give one charter folder or file")
	}
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339Nano, *nowFlag)
		if err != nil {
			termtext.Fprintf(stderr, "charter-lsp migrate: --now: %v\n", err)
			return 2
		}
		now = t
	}
	// Nothing outside the charter's project is read or written.
	ps, abs, err := projectsOf(paths[0])
	if err != nil {
		termtext.Fprintf(stderr, "charter-lsp migrate: %v\n", err)
		return 2
	}
	disk := ps.fs()

	var plan *migrate.Plan
	inside := filepath.Join(abs, charterfile.CharterFile) // a folder counts as inside itself
	dir := charterfile.DirOf(inside)
	if dir == "" {
		dir = analysis.PiCharterDir(inside)
	}
	if dir != "" {
		if _, err := disk.Stat(dir); err != nil {
			termtext.Fprintf(stderr, "charter-lsp migrate: %s\n", readError(err))
			return 2
		}
	}
	switch {
	case charterfile.DirOf(inside) != "":
		d := charterfile.LoadDir(disk, dir)
		root, _ := migrate.CheckCharters(d) // its error is FromCharters's
		plan, err = migrate.FromCharters(d, migrate.Options{Now: now, Taken: takenIn(disk, root)})
	case dir != "":
		d := pi.LoadDir(disk, dir)
		root, _ := migrate.CheckV3(d) // its error is FromV3's
		plan, err = migrate.FromV3(d, migrate.Options{Now: now, Taken: takenIn(disk, root)})
	default:
		return migrateRP1File(disk, ps.writer(abs), abs, now, *write, stdout, stderr)
	}
	switch {
	case errors.Is(err, migrate.ErrNothingToDo):
		termtext.Fprintf(stdout, "charter-lsp migrate: %v\n", err)
		return 0
	case err != nil:
		termtext.Fprintf(stderr, "charter-lsp migrate: %v\n", err)
		return 1
	}
	fixFirst(stdout, disk, dir, paths[0])
	printPlan(stdout, plan)
	if !*write {
		fmt.Fprintln(stdout, "\nNothing written: run again with --write to create the folder.")
		return 0
	}
	if err := writePlan(ps.writer(plan.Root), plan); err != nil {
		termtext.Fprintf(stderr, "charter-lsp migrate: %v\n", err)
		return 2
	}
	termtext.Fprintf(stdout, "\nCreated %s (%s).\n", displayPath(plan.Dir())+string(filepath.Separator), fileNames(plan))
	return 0
}

// migrateRP1File hands an rp1 charter, read from disk, to migrateRP1 and
// writes the result in the folder in.
func migrateRP1File(disk vfs.FS, in atomicfile.Dir, path string, now time.Time, write bool, stdout, stderr io.Writer) int {
	src, err := disk.ReadFile(path) // bounded, never blocking on a FIFO or reading a device
	var nr *vfs.NotRegularError
	if errors.Is(err, vfs.ErrOutside) || errors.As(err, &nr) && !nr.Mode.IsDir() {
		termtext.Fprintf(stderr, "charter-lsp migrate: %s\n", readError(err))
		return 2
	}
	if err != nil || analysis.Classify(path, src) != analysis.KindRP1Charter {
		termtext.Fprintf(stderr, "charter-lsp migrate: %s is not a charter charter-lsp can migrate: give a .pi/charters/<id>/ or .charters/<id>/ folder, or an rp1 charter.md\n", displayPath(path))
		return 2
	}
	text, notes, err := migrateRP1(src, now)
	switch {
	case errors.Is(err, migrate.ErrNothingToDo):
		termtext.Fprintf(stdout, "charter-lsp migrate: %v\n", err)
		return 0
	case err != nil:
		termtext.Fprintf(stderr, "charter-lsp migrate: %v\n", err)
		return 1
	}
	termtext.Fprintf(stdout, "charter-lsp migrate: %s (rp1 scratch pad) → the skeleton format, in place\n", displayPath(path))
	for _, n := range notes {
		termtext.Fprintf(stdout, "  - %s\n", n)
	}
	name := filepath.ToSlash(displayPath(path))
	io.WriteString(stdout, "\n"+shown(isTerminal(stdout), udiff.Unified("a/"+name, "b/"+name, string(src), string(text))))
	if !write {
		fmt.Fprintln(stdout, "\nNothing written: run again with --write to rewrite the file.")
		return 0
	}
	if err := in.Write(path, text, 0o644); err != nil {
		termtext.Fprintf(stderr, "charter-lsp migrate: %v\n", err)
		return 2
	}
	termtext.Fprintf(stdout, "\nRewrote %s.\n", displayPath(path))
	return 0
}

// takenIn lists the names already in the .charters folder root.
func takenIn(disk vfs.FS, root string) func(string) bool {
	names := map[string]bool{}
	if entries, err := disk.ReadDir(root); err == nil {
		for _, e := range entries {
			names[e.Name()] = true
		}
	}
	return func(name string) bool { return names[name] }
}

func printPlan(w io.Writer, p *migrate.Plan) {
	term := isTerminal(w)
	termtext.Fprintf(w, "charter-lsp migrate: %s (%s) → %s\n", displayPath(p.From)+string(filepath.Separator), p.Kind, displayPath(p.Dir())+string(filepath.Separator))
	for _, n := range p.Notes {
		termtext.Fprintf(w, "  - %s\n", n)
	}
	for _, f := range p.Files {
		name := displayPath(filepath.Join(p.Dir(), f.Name))
		if len(f.Content) == 0 {
			termtext.Fprintf(w, "\n=== %s (empty)\n", name)
			continue
		}
		termtext.Fprintf(w, "\n=== %s (%d bytes)\n", name, len(f.Content))
		io.WriteString(w, shown(term, string(f.Content)))
		if !strings.HasSuffix(string(f.Content), "\n") {
			fmt.Fprintln(w)
		}
	}
}

// shown is a preview of a repository's text as printed: on a terminal its
// control characters are escaped (termtext.Escape; a CRLF shows as a line
// end), so a charter cannot drive the terminal; to a pipe or a file it is
// unchanged, so the diff still applies with patch — but for a line that
// would read as a CI command (termtext.Lines: a CI log is a pipe too),
// escaped everywhere.
func shown(term bool, s string) string {
	if term {
		s = termtext.Escape(strings.ReplaceAll(s, "\r\n", "\n"))
	}
	return termtext.Lines(s)
}

func fileNames(p *migrate.Plan) string {
	var names []string
	for _, f := range p.Files {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// writePlan creates the new charter folder and its files, in the folder in
// (the project: a .charters linked out of it is refused). It creates the
// new folder with Mkdir, so it never reuses an existing one, and writes
// each file atomically. On a failure it removes the folder it made.
func writePlan(in atomicfile.Dir, p *migrate.Plan) error {
	if err := in.Mkdir(p.Root, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	dir := p.Dir()
	if err := in.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	for _, f := range p.Files {
		if err := in.Write(filepath.Join(dir, f.Name), f.Content, 0o644); err != nil {
			in.RemoveAll(dir)
			return err
		}
	}
	return nil
}

// fixFirst says, before a migration's plan, which findings in the old
// charter dir `check --fix` would correct: the migration carries what
// pi-charter reads today, so a misreading (`Status: done`, read as pending
// with "done" as the note) would be carried as it is read. arg is the
// charter as the user named it.
func fixFirst(w io.Writer, disk vfs.FS, dir, arg string) {
	snap := workspace.NewSession(workspace.Options{Disk: disk}).Update(workspace.Change{Settings: &workspace.Settings{}})
	files := charterfile.Files(disk, dir)
	if charterfile.DirOf(filepath.Join(dir, charterfile.CharterFile)) == "" {
		files = analysis.PiCharterFiles(disk, dir)
	}
	var fixable []diag.Diagnostic
	unsafe := false
	for _, f := range files {
		ds, err := snap.Diagnostics(context.Background(), f)
		if err != nil {
			return
		}
		for _, d := range ds {
			if d.Fix.Applicable() && d.Severity != diag.SeverityOff {
				fixable = append(fixable, d)
				unsafe = unsafe || d.Fix.Unsafe
			}
		}
	}
	if len(fixable) == 0 {
		return
	}
	flags := "--fix"
	if unsafe {
		flags += " --unsafe-fixes"
	}
	fmt.Fprintf(w, "charter-lsp migrate: first, %s in %s that `check %s` corrects: the migration carries what pi-charter reads today, these misreadings too:\n",
		count(len(fixable), "finding", "findings"), arg, flags)
	for _, d := range fixable {
		fmt.Fprintf(w, "  %s:%d %s: %s\n", termtext.Escape(displayPath(d.File)), d.Range.Start.Line+1, d.Code, termtext.Escape(d.Message))
	}
	fmt.Fprintf(w, "Run `charter-lsp check %s %s` (or --diff to see it), then migrate.\n\n", flags, shellword.Quote(arg))
}
