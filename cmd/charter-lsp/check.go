package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/glob"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/workspace"
)

const checkAbout = `Checks charter files, or every charter under the folders given (default: the current folder):
rp1 charter.md files, pi-charter .pi/charters/<id>/ and .charters/<id>/ folders. PATH - reads one file
from stdin; --stdin-filename says which file it stands for (default charter.md). A folder's walk skips
what the repository's .gitignore files ignore, what --ignore names, and node_modules, vendor
and VCS folders, a .pi/charters/<id>/ folder alike whether PATH is .pi/charters or a folder above
it; a file or charter folder named as a PATH is checked even when ignored. A quoted PATH with *, ? or **
('docs/**/charter.md') selects the charter files it matches.

--fix applies every safe fix that needs no input (the quick fixes the editor offers, less those that
leave a blank to fill, such as an empty Because: line), rewriting each file atomically; it applies
them pass after pass until none is left, prints what it fixed on stderr, then reports what remains.
A safe fix changes how something is written, never what it says; --unsafe-fixes adds the fixes
that may (Status: done becoming pass, a changed VAL id), which it otherwise counts and leaves.
--diff prints the same changes as a unified diff (for git apply or patch -p1) and writes nothing.

Diagnostics go to stdout; a summary line ("3 files checked: 1 error, 4 warnings") goes to stderr,
and with --verbose, before it, which generation each file was read as and why.

Exit status: 0 no errors (and no more warnings than --max-warnings); 1 an error-severity diagnostic,
or too many warnings; 2 a usage or I/O error, or a PATH that holds no charter (a mistyped path
must not pass CI), names a file that is not a charter, or is a binary file.`

// checkOpts are check's flags.
type checkOpts struct {
	format      *choice
	color       *choice
	freshness   *choice
	config      string
	fix, diff   bool
	unsafeFixes bool
	quiet       bool
	verbose     bool
	maxWarnings int
	stdinName   string
	severity    severities
	printConfig bool
	ignore      stringList
}

func runCheck(e *env, args []string) int {
	fl := newFlags("check", "[flags] [PATH…]", checkAbout, e)
	var o checkOpts
	o.format = newChoice("text", "text", "json", "sarif", "github")
	fl.Var(o.format, "format", "output `format`: text, json, sarif or github (GitHub Actions annotations)")
	fl.alias("f", "format")
	fl.StringVar(&o.config, "config", "", "configuration `file` (default: the .charter-lsp.jsonc found above each file)")
	fl.alias("c", "config")
	o.freshness = fl.freshnessFlag()
	fl.BoolVar(&o.fix, "fix", false, "apply every fix that needs no input, then report what remains")
	fl.BoolVar(&o.diff, "diff", false, "print the changes --fix would make as a unified diff, and write nothing")
	fl.alias("fix-dry-run", "diff")
	fl.writing("fix", "unsafe-fixes")
	fl.BoolVar(&o.unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, apply the unsafe fixes too: those that may change what the file says (a synonym or typo turned into a status token, a changed id; docs/diagnostics.md says which)")
	fl.BoolVar(&o.quiet, "quiet", false, "report errors only (warnings still count for --max-warnings)")
	fl.alias("q", "quiet")
	fl.BoolVar(&o.verbose, "verbose", false, "say on stderr which generation each file was read as (rp1's scratch-pad or skeleton charter, pi-charter's .charters/ grammars) and why")
	fl.alias("v", "verbose")
	fl.IntVar(&o.maxWarnings, "max-warnings", -1, "exit 1 when there are more than `N` warnings; -1: no limit")
	o.color = newChoice("auto", "auto", "always", "never")
	fl.Var(o.color, "color", "`when` to colour the text output: auto (with FORCE_COLOR set, or on a terminal unless NO_COLOR is set), always or never")
	fl.Var(&o.ignore, "ignore", "skip the files and folders this gitignore-style `pattern` matches (relative to the current folder) when walking a folder, besides what git ignores; repeatable")
	o.severity = severities{}
	fl.Var(o.severity, "severity", "set a code's severity for this run, over the configuration: `code=severity` (error, warning, information, hint or off); repeatable, or comma-separated")
	fl.BoolVar(&o.printConfig, "print-config", false, "print the configuration that applies to PATH (default: the current folder), defaults filled in and these flags applied, as JSON --config reads; check nothing")
	fl.StringVar(&o.stdinName, "stdin-filename", "", "the `path` the text read from stdin (PATH -) stands for (default: charter.md)")
	paths, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	defer batchGC()()
	stdin := slices.Contains(paths, "-")
	switch {
	case o.fix && o.diff:
		return fl.usageError("--fix writes the fixes and --diff only shows them: give one of them")
	case o.diff && o.format.value != "text":
		return fl.usageError("--diff prints a unified diff on stdout; it cannot be combined with --format %s", o.format.value)
	case o.fix && stdin:
		return fl.usageError("--fix cannot rewrite stdin; use --diff to see the fixes")
	case o.unsafeFixes && !o.fix && !o.diff:
		return fl.usageError("--unsafe-fixes says which fixes --fix or --diff apply: give one of them too")
	case o.stdinName != "" && !stdin:
		return fl.usageError("--stdin-filename names the text read from stdin: give - as the PATH")
	case o.maxWarnings < -1:
		return fl.usageError("--max-warnings %d: give a number of warnings, or -1 for no limit", o.maxWarnings)
	}
	if n := countOf(paths, "-"); n > 1 {
		return fl.usageError("- (stdin) given %d times: stdin holds one file", n)
	}

	c := &checkRun{opts: o, e: e}
	c.disk = c.projects.fs()
	c.fsys = overlay{FS: c.disk, files: map[string][]byte{}}
	if o.config != "" {
		// Named by the user: read wherever it is, but like every file
		// (bounded, never blocking on a FIFO).
		src, err := vfs.OS.ReadFile(o.config)
		if err != nil {
			return fl.usageError("--config: %v", err)
		}
		cfg, err := analysis.ParseConfig(src)
		if err != nil {
			return fl.usageError("--config %s: %v", o.config, err)
		}
		c.config = &cfg
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	// One session reads the disk for the walk and the checks alike: every
	// listing and file is read once.
	c.snapshot(nil)
	if o.printConfig {
		if len(paths) > 1 || stdin {
			return fl.usageError("--print-config prints the configuration of one PATH")
		}
		return c.printConfig(paths[0])
	}
	c.color = useColor(o.color.value, e.stdout)
	if len(paths) == 1 && !stdin && !o.fix && !o.diff && !o.verbose {
		// One folder is checked as it is walked (walkChecking): what the
		// run holds is the charters in flight, not the tree.
		c.walked = &walkedRun{}
	}
	for _, p := range paths {
		c.collect(p)
	}
	if c.walked != nil && c.walked.n > 0 {
		all, err := c.walked.finish(c)
		if err != nil {
			termtext.Fprintf(e.stderr, "charter-lsp check: %v\n", err)
			return 2
		}
		return c.report(all)
	}
	if len(c.files) == 0 {
		return 2 // every path was reported
	}
	// What is left of the listing's bookkeeping is which files are project
	// configuration files (checkEach asks), not a set of every path.
	c.seen = nil
	for _, f := range c.files {
		if slices.Contains(analysis.ConfigFileNames, filepath.Base(f)) {
			if c.configsListed == nil {
				c.configsListed = map[string]bool{}
			}
			c.configsListed[f] = true
		}
	}
	var all []printedDiag
	var err error
	switch {
	case o.fix || o.diff:
		var ds []diag.Diagnostic
		if ds, err = c.fixAll(); err == nil {
			all = c.printed(ds)
			err = c.printErr
		}
	default:
		all, err = c.checkPrinted()
	}
	if err != nil {
		termtext.Fprintf(e.stderr, "charter-lsp check: %v\n", err)
		return 2
	}
	return c.report(all)
}

// checkRun is one run of check: the files it found and what it reports.
type checkRun struct {
	opts     checkOpts
	e        *env
	config   *analysis.Config
	projects projects      // the roots of the PATHs: nothing is read or written outside them
	disk     *vfs.Confined // the disk, within the projects
	fsys     overlay       // the disk under the texts held in memory (fixes, stdin)
	files    []string      // absolute paths, in the order found
	// walked, when set, checks a folder's files as its walk finds them
	// (walkChecking), rather than listing them in files.
	walked *walkedRun
	seen   map[string]bool // files already listed, while listing them
	// configsListed are the project configuration files among files.
	configsListed map[string]bool
	failed        bool // a path was missing, not a charter, or binary
	names         map[string]string
	wdOnce        sync.Once // the working folder, asked once for display
	wd            string
	wdErr         error
	printMu       sync.Mutex          // guards printErr: files are printed as they are checked
	printErr      error               // the first error printing a diagnostic
	color         bool                // colour the text output
	sess          *workspace.Session  // the engine the server runs, over fsys
	snap          *workspace.Snapshot // its current snapshot
}

// view is the disk as the run's session has read it: what the walk lists
// and reads, the checks find already read.
func (c *checkRun) view() vfs.FS { return c.snap.FS() }

// pathProblem reports a PATH that cannot be checked; the run exits 2.
func (c *checkRun) pathProblem(format string, args ...any) {
	termtext.Fprintf(c.e.stderr, "charter-lsp check: "+format+"\n", args...)
	c.failed = true
}

func (c *checkRun) add(file string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if !c.seen[file] {
		c.seen[file] = true
		c.files = append(c.files, file)
	}
}

// collect lists the charter files PATH holds, or reports why it holds none.
func (c *checkRun) collect(path string) {
	if path == "-" {
		c.collectStdin()
		return
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		c.pathProblem("%s: %v", path, err)
		return
	}
	// The path as the user named it: where it leads decides nothing yet.
	fi, err := vfs.OS.Stat(abs)
	if err == nil {
		c.addProject(abs, fi.IsDir())
		fi, err = c.view().Stat(abs)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(path, "*?["):
		c.collectGlob(path)
		return
	case errors.Is(err, fs.ErrNotExist):
		c.pathProblem("%s: no such file or folder", path)
		return
	case err != nil:
		c.pathProblem("%s", readError(err))
		return
	case fi.IsDir():
		var found int
		var ws analysis.Workspace
		if c.walked != nil {
			found, ws, err = c.walkChecking(abs)
		} else {
			var files []string
			files, ws, err = c.folderFiles(abs)
			for _, f := range files {
				c.add(f)
			}
			found = len(files)
		}
		if err != nil {
			c.pathProblem("%v", err)
			return
		}
		if found == 0 {
			msg := fmt.Sprintf("%s holds no charter (no rp1 charter.md, no .pi/charters/<id>/, no .charters/<id>/)", path)
			if len(ws.OtherCharters) > 0 {
				msg += fmt.Sprintf("; %s is a charter.md but not rp1-style", displayPath(ws.OtherCharters[0]))
			}
			if n := len(ws.Ignored); n > 0 {
				msg += fmt.Sprintf("; %s skipped as ignored (.gitignore, --ignore), such as %s", count(n, "path", "paths"), displayPath(ws.Ignored[0]))
			}
			c.pathProblem("%s", msg)
		}
		return
	case !fi.Mode().IsRegular():
		c.pathProblem("%s is not a regular file", path)
		return
	}
	head, err := c.view().ReadFile(abs)
	if _, tooLarge := vfs.IsTooLarge(err); tooLarge {
		c.add(abs) // checked, it says file-too-large
		return
	}
	if err != nil {
		c.pathProblem("%s", readError(err))
		return
	}
	if c.named(path, abs, head) {
		c.add(abs)
	}
}

// folderFiles lists the charter files under the folder abs, and what the
// walk found besides.
func (c *checkRun) folderFiles(abs string) ([]string, analysis.Workspace, error) {
	wd, _ := os.Getwd()
	fsys := c.view()
	ws, err := analysis.DiscoverWith(context.Background(), fsys, abs, analysis.DiscoverOptions{Ignore: c.opts.ignore, Base: wd})
	if err != nil {
		return nil, ws, err
	}
	found := slices.Clone(ws.RP1Charters)
	// The walk's pi charters, what it skipped left out (a charter folder,
	// or a folder inside one, named is its charter; .pi/charters named
	// lists its charters less the ignored ones): of a charter named by a
	// folder inside it, the files below that folder.
	for _, dir := range ws.PiCharters {
		for _, f := range analysis.PiCharterFiles(fsys, dir) {
			if vfs.Below(abs, f) {
				found = append(found, f)
			}
		}
	}
	for _, dir := range ws.Charters {
		found = append(found, charterfile.Files(fsys, dir)...)
	}
	return found, ws, nil
}

// collectGlob adds the charter files a glob PATH matches ("docs/**/charter.md",
// quoted so the shell leaves it, as eslint and markdownlint-cli2 take
// globs): the files a walk of the folder before the first wildcard finds,
// whose path from the working folder the glob matches. One that matches
// none fails the run, as a folder that holds no charter does.
func (c *checkRun) collectGlob(pattern string) {
	slash := filepath.ToSlash(pattern)
	re, err := glob.Regexp(strings.TrimPrefix(slash, "./"), glob.RE2)
	if err != nil {
		c.pathProblem("%s: %v", pattern, err)
		return
	}
	match, err := regexp.Compile(re)
	if err != nil {
		c.pathProblem("%s: %v", pattern, err)
		return
	}
	base := "."
	if i := strings.IndexAny(slash, "*?[{"); i > 0 {
		if j := strings.LastIndex(slash[:i], "/"); j > 0 {
			base = slash[:j]
		}
	}
	abs, err := filepath.Abs(filepath.FromSlash(base))
	if err != nil {
		c.pathProblem("%s: %v", pattern, err)
		return
	}
	fi, err := vfs.OS.Stat(abs)
	if err != nil || !fi.IsDir() {
		c.pathProblem("%s: no such folder as %s", pattern, base)
		return
	}
	c.addProject(abs, true)
	found, _, err := c.folderFiles(abs)
	if err != nil {
		c.pathProblem("%v", err)
		return
	}
	wd, _ := os.Getwd()
	n := 0
	for _, f := range found {
		if rel, err := filepath.Rel(wd, f); err == nil && match.MatchString(filepath.ToSlash(rel)) {
			c.add(f)
			n++
		}
	}
	if n == 0 {
		c.pathProblem("%s matches no charter file", pattern)
	}
}

// addProject bounds the run's reads and writes by abs's project too; what
// was read before may have been refused as outside the projects, so the
// session reads it again.
func (c *checkRun) addProject(abs string, isDir bool) {
	n := len(c.projects)
	if c.projects.add(abs, isDir); len(c.projects) == n {
		return
	}
	c.disk.Forget()
	c.snap = c.sess.Update(workspace.Change{DiskUnknown: true})
}

// readError is err for a message: a refused path says why without
// repeating the path.
func readError(err error) string {
	var oe *vfs.OutsideError
	if errors.As(err, &oe) {
		return "not read: " + oe.Error()
	}
	return err.Error()
}

// named decides whether a file given by name is a charter file to check,
// reporting it when it is not: a named file is never silently skipped.
func (c *checkRun) named(path, abs string, content []byte) bool {
	if looksBinary(content) {
		c.pathProblem("%s is a binary file, not a charter: refused", path)
		return false
	}
	switch analysis.Classify(abs, content) {
	case analysis.KindNone:
		c.pathProblem("%s is not a charter file: check reads rp1 charter.md files (or markdown starting with `# Project Charter`), the files of .pi/charters/<id>/ and those of .charters/<id>/", path)
		return false
	case analysis.KindOtherCharter:
		msg := fmt.Sprintf("%s is a charter.md but not an rp1 charter (none of rp1's section headings, no ## Scratch Pad): nothing to check", path)
		if abs != "" && c.names[abs] == "" {
			msg += fmt.Sprintf("; `charter-lsp interview %s` starts one", path)
		}
		c.pathProblem("%s", msg)
		return false
	}
	return true
}

func (c *checkRun) collectStdin() {
	name := c.opts.stdinName
	if name == "" {
		name = "charter.md"
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		c.pathProblem("--stdin-filename %s: %v", name, err)
		return
	}
	// One byte past the analysis limit: enough for the checker to report
	// file-too-large instead of reading without end.
	text, err := io.ReadAll(io.LimitReader(c.e.stdin, analysis.MaxFileSize+1))
	if err != nil {
		c.pathProblem("reading stdin: %v", err)
		return
	}
	if c.names == nil {
		c.names = map[string]string{}
	}
	c.names[abs] = name
	c.addProject(abs, false)
	if !c.named("stdin (as "+name+")", abs, text) {
		return
	}
	c.fsys.files[abs] = text
	c.snap = c.sess.Update(workspace.Change{Disk: []string{abs}})
	c.add(abs)
}

func countOf(xs []string, x string) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

// looksBinary uses git's rule: a NUL byte in the first 8000 bytes.
func looksBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// gitLimits, when set, bounds check's readings of the git history (default
// gitlog's); the tests shrink it to make a reading time out.
var gitLimits func() gitlog.Limits

// snapshot is the run's files as they are now, as the language server
// sees a workspace: a --fix pass changes only what it fixed, so the next
// pass re-checks only those files and their charters.
func (c *checkRun) snapshot(changed []string) *workspace.Snapshot {
	if c.sess == nil {
		settings := workspace.Settings{}
		if c.config != nil {
			settings = workspace.Settings{Config: *c.config, Exclusive: true}
		}
		if f := c.opts.freshness.value; f != "" {
			settings.Config.Freshness = pi.Freshness(f)
		}
		if len(c.opts.severity) > 0 {
			settings.Config = settings.Config.Merge(analysis.Config{Severity: c.opts.severity})
		}
		// Without --fix or --diff each file is read and checked once.
		readOnce := !c.opts.fix && !c.opts.diff
		c.sess = workspace.NewSession(workspace.Options{Disk: c.fsys, GitLimits: gitLimits, ReadOnce: readOnce})
		c.snap = c.sess.Update(workspace.Change{Settings: &settings})
	} else if len(changed) > 0 {
		c.snap = c.sess.Update(workspace.Change{Disk: changed})
	}
	return c.snap
}

// check returns the diagnostics of every file, sorted; changed are the
// files a --fix pass changed since the last check.
func (c *checkRun) check(changed ...string) ([]diag.Diagnostic, error) {
	each := make([][]diag.Diagnostic, len(c.files))
	err := c.checkEach(changed, func(i int, ds []diag.Diagnostic) { each = putAt(each, i, ds) })
	if err != nil {
		return nil, err
	}
	all := slices.Concat(each...)
	diag.Sort(all)
	return all, nil
}

// checkPrinted is check as the report prints it: each file's diagnostics
// are kept printed (printedDiag) as soon as they are found, not as found.
func (c *checkRun) checkPrinted() ([]printedDiag, error) {
	var kept printedFiles
	if err := c.checkEach(nil, kept.keeper(c)); err != nil {
		return nil, err
	}
	return kept.all(c)
}

// printedFiles are the files checked with something to say, by index:
// most have nothing.
type printedFiles struct {
	mu   sync.Mutex
	each []printedFile
}

type printedFile struct {
	i  int
	ps []printedDiag
}

// keeper keeps each file's diagnostics printed; it may be called from
// several goroutines at once.
func (p *printedFiles) keeper(c *checkRun) func(i int, ds []diag.Diagnostic) {
	return func(i int, ds []diag.Diagnostic) {
		if ps := c.printed(ds); len(ps) > 0 {
			p.mu.Lock()
			p.each = append(p.each, printedFile{i, ps})
			p.mu.Unlock()
		}
	}
}

// all are the diagnostics kept, in the order they are printed in.
func (p *printedFiles) all(c *checkRun) ([]printedDiag, error) {
	if c.printErr != nil {
		return nil, c.printErr
	}
	slices.SortFunc(p.each, func(a, b printedFile) int { return cmp.Compare(a.i, b.i) })
	n := 0
	for _, f := range p.each {
		n += len(f.ps)
	}
	all := make([]printedDiag, 0, n)
	for _, f := range p.each {
		all = append(all, f.ps...)
	}
	diag.SortByKey(all, func(p *printedDiag) diag.Key { return p.key })
	return all, nil
}

// walkedRun is a check of the folder PATH as it is walked (walkChecking).
type walkedRun struct {
	n       int // files checked
	kept    printedFiles
	configs configsSeen
	err     error // a check that failed
}

// walkChecking checks the charter files under the folder abs as its walk
// finds them, through one stream (workspace.Stream): each charter's files
// are checked once the walk has found it, and what the session read for
// a folder is let go once the walk is done with it and the charters
// below it are checked. It returns how many files it found (their
// diagnostics are kept in c.walked) and what the walk found besides, as
// folderFiles does for a run that lists first.
func (c *checkRun) walkChecking(abs string) (int, analysis.Workspace, error) {
	w := c.walked
	snap := c.snap
	fsys := c.view()
	keep := w.kept.keeper(c)
	st := snap.Stream(context.Background(), true, func(i int, path string, ds []diag.Diagnostic) {
		keep(i, ds)
		w.configs.see(c, snap, i, path)
	})
	var mu sync.Mutex
	add := func(files []string) {
		if len(files) == 0 {
			return
		}
		mu.Lock()
		w.n += len(files)
		mu.Unlock()
		st.Add(files...)
	}
	wd, _ := os.Getwd()
	ws, err := analysis.DiscoverWith(st.Context(), fsys, abs, analysis.DiscoverOptions{
		Ignore: c.opts.ignore, Base: wd, Done: st.Walked,
		Found: func(family analysis.Family, path string) {
			files := analysis.FilesOf(fsys, family, path)
			if family == analysis.FamilyPi && !vfs.Below(abs, path) {
				// A pi charter named by a folder inside it: the files
				// below that folder (folderFiles).
				files = slices.DeleteFunc(files, func(f string) bool { return !vfs.Below(abs, f) })
			}
			add(files)
		},
	})
	w.err = st.Wait()
	if w.err != nil {
		// The walk stopped because a check failed: that is the error.
		err = nil
	}
	return w.n, ws, err
}

// finish checks the configuration files of the files checked, and returns
// every diagnostic kept, in the order they are printed in.
func (w *walkedRun) finish(c *checkRun) ([]printedDiag, error) {
	if w.err != nil {
		return nil, w.err
	}
	keep := w.kept.keeper(c)
	if err := w.configs.check(c.snap, w.n, keep); err != nil {
		return nil, err
	}
	return w.kept.all(c)
}

// putAt sets xs[i], growing xs to hold it (a project file after the
// files).
func putAt[T any](xs []T, i int, x T) []T {
	if i >= len(xs) {
		xs = append(xs, make([]T, i+1-len(xs))...)
	}
	xs[i] = x
	return xs
}

// checkEach checks every file, handing keep each file's diagnostics with
// the file's index in c.files, then those of each project configuration
// file that configures them (config-invalid; indexes from len(c.files)
// on). keep is called from several goroutines at once for the files, and
// from one at a time after; changed are the files a --fix pass changed
// since the last check.
func (c *checkRun) checkEach(changed []string, keep func(i int, ds []diag.Diagnostic)) error {
	snap := c.snapshot(changed)
	var configs configsSeen
	// A run that asks nothing more of the snapshot lets each charter
	// folder go once it is checked: its memory stays flat in the size of
	// the tree. --fix checks again (what it did not change is carried
	// over) and --verbose reads each file's generation afterwards.
	release := !c.opts.fix && !c.opts.diff && !c.opts.verbose
	err := snap.DiagnosticsOf(context.Background(), c.files, release, func(i int, ds []diag.Diagnostic) {
		keep(i, ds)
		configs.see(c, snap, i, c.files[i])
	})
	if err != nil {
		return err
	}
	return configs.check(snap, len(c.files), keep)
}

// configsSeen are the project configuration files that configure the
// files checked, each with the first file it configures (by index): they
// are checked in that order, after the files.
type configsSeen struct {
	mu      sync.Mutex
	firstOf map[string]int
}

// see notes the configuration file of file i, path; it may be called
// from several goroutines at once, before the file's folder is released.
func (cs *configsSeen) see(c *checkRun, snap *workspace.Snapshot, i int, path string) {
	cfg, _ := snap.IgnoredProjectKeys(path)
	if cfg == "" || c.configsListed[cfg] {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.firstOf == nil {
		cs.firstOf = map[string]int{}
	}
	if first, ok := cs.firstOf[cfg]; !ok || i < first {
		cs.firstOf[cfg] = i
	}
}

// check hands keep the diagnostics of each configuration file seen, with
// the indexes from n on. The project file that configures a file is
// checked too: one that does not parse (config-invalid) or cannot be read
// (a FIFO: file-not-regular) is reported on itself, and the defaults
// apply.
func (cs *configsSeen) check(snap *workspace.Snapshot, n int, keep func(i int, ds []diag.Diagnostic)) error {
	configs := slices.SortedFunc(maps.Keys(cs.firstOf), func(a, b string) int { return cmp.Compare(cs.firstOf[a], cs.firstOf[b]) })
	for k, cfg := range configs {
		ds, err := snap.Diagnostics(context.Background(), cfg)
		if err != nil {
			return err
		}
		keep(n+k, ds)
	}
	return nil
}

// display is how a file is named in the output: relative to the working
// folder, or the --stdin-filename given.
func (c *checkRun) display(file string) string {
	if n, ok := c.names[file]; ok {
		return filepath.ToSlash(n)
	}
	// The working folder is asked for once: a run can print hundreds of
	// thousands of diagnostics.
	c.wdOnce.Do(func() { c.wd, c.wdErr = os.Getwd() })
	if c.wdErr != nil {
		return file
	}
	return displayPathIn(c.wd, file)
}

// printedDiag is a diagnostic as check prints it, with what orders it and
// what the summary counts of it: check keeps each file's diagnostics so
// from when they are found (a fraction of their memory: no spans of
// fixes, no data), and prints them sorted at the end.
type printedDiag struct {
	key      diag.Key
	severity diag.Severity
	// hidden: --quiet hides it (it is counted, not printed).
	hidden bool
	// out is the diagnostic printed in the --format (text and github: its
	// line; json: its element of the array).
	out string
	// sarif is the diagnostic itself for --format sarif, which prints the
	// run's diagnostics as one document.
	sarif *diag.Diagnostic
}

// printed is ds as check prints them, in the same order; a diagnostic
// whose severity is off is left out. It may be called from several
// goroutines at once.
func (c *checkRun) printed(ds []diag.Diagnostic) []printedDiag {
	out := make([]printedDiag, 0, len(ds))
	shownOf, shown := "", "" // a file's diagnostics come together: its name is made once
	for _, d := range ds {
		if d.Severity == diag.SeverityOff {
			continue
		}
		p := printedDiag{key: d.Key(), severity: d.Severity}
		if c.opts.quiet && d.Severity != diag.SeverityError {
			p.hidden = true
			out = append(out, p)
			continue
		}
		if d.File != shownOf || shown == "" {
			shownOf, shown = d.File, c.display(d.File)
		}
		d.File = shown
		if len(d.Related) > 0 {
			// A copy: the snapshot's diagnostics are shared.
			d.Related = slices.Clone(d.Related)
			for i := range d.Related {
				d.Related[i].File = c.display(d.Related[i].File)
			}
		}
		switch c.opts.format.value {
		case "text":
			p.out = textLine(&d, c.color)
		case "json":
			el, err := jsonElement(&d)
			if err != nil {
				c.printFailed(err)
			}
			p.out = string(el)
		case "github":
			p.out = githubLine(&d)
		case "sarif":
			p.sarif = &d
		}
		out = append(out, p)
	}
	return out
}

// printFailed keeps the first error printing a diagnostic.
func (c *checkRun) printFailed(err error) {
	c.printMu.Lock()
	defer c.printMu.Unlock()
	if c.printErr == nil {
		c.printErr = err
	}
}

// report prints the diagnostics and the summary, and returns the exit code.
func (c *checkRun) report(all []printedDiag) int {
	o := c.opts
	var t tally
	for _, p := range all {
		t.add(p.severity, p.hidden)
	}
	var err error
	if !o.diff {
		err = c.write(all)
	}
	if err != nil {
		termtext.Fprintf(c.e.stderr, "charter-lsp check: %v\n", err)
		return 2
	}
	if o.verbose {
		c.writeReadings(c.e.stderr)
	}
	paint := useColor(o.color.value, c.e.stderr)
	files := len(c.files)
	if c.walked != nil {
		files += c.walked.n
	}
	fmt.Fprintln(c.e.stderr, t.summary(files, paint))
	code := 0
	if t.errors > 0 {
		code = 1
	}
	if o.maxWarnings >= 0 && t.warnings > o.maxWarnings {
		termtext.Fprintf(c.e.stderr, "charter-lsp check: %s, more than --max-warnings %d allows\n", count(t.warnings, "warning", "warnings"), o.maxWarnings)
		code = 1
	}
	if c.failed {
		code = 2
	}
	return code
}

// write prints the diagnostics --quiet does not hide, in the --format.
func (c *checkRun) write(all []printedDiag) error {
	if c.opts.format.value == "sarif" {
		var shown []diag.Diagnostic
		for _, p := range all {
			if p.sarif != nil {
				shown = append(shown, *p.sarif)
			}
		}
		return writeSARIF(c.e.stdout, shown, version)
	}
	w := bufio.NewWriterSize(c.e.stdout, 64<<10)
	json := c.opts.format.value == "json"
	n := 0
	for _, p := range all {
		if p.hidden {
			continue
		}
		if json {
			w.WriteString(jsonArray[min(n, 1)])
		}
		w.WriteString(p.out)
		n++
	}
	if json {
		w.WriteString(jsonArray[2+min(n, 1)])
	}
	return w.Flush()
}

// displayPath prints paths relative to the working folder when they are
// below it, as linters do.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	return displayPathIn(wd, p)
}

// displayPathIn is displayPath with wd the working folder.
func displayPathIn(wd, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}
