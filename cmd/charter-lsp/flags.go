package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

// flags is a command's flag set (the standard library's, which accepts
// both -name and --name) with what every command shares: -h/--help prints
// help built from the flag definitions on stdout and exits 0; --version
// prints the version; a usage error prints one line naming the flag on
// stderr and exits 2. The same help text, for every command, makes the
// generated CLI reference (docs/cli.md).
type flags struct {
	*flag.FlagSet
	name     string // the command
	synopsis string // after "charter-lsp NAME "
	about    string // what the command does, then anything else help says
	e        *env
	version  *bool
	aliases  map[string]string   // alias → the flag it stands for (a one-letter alias is a short flag: -f)
	writes   map[string]bool     // flags that make the command write files: never suggested for a typo
	values   map[string][]string // the values a string flag takes, for completion
}

func newFlags(name, synopsis, about string, e *env) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, in one line
	fs.Usage = func() {}
	f := &flags{FlagSet: fs, name: name, synopsis: synopsis, about: about, e: e, aliases: map[string]string{}, writes: map[string]bool{}, values: map[string][]string{}}
	f.version = fs.Bool("version", false, "print the version and exit")
	f.alias("V", "version")
	e.flags = f // what the shell completions and the man page are made from
	return f
}

// alias makes --alias another name for --of (defined already); a
// one-letter alias is the flag's short form, -x, as peers spell it.
func (f *flags) alias(alias, of string) {
	target := f.Lookup(of)
	f.Var(target.Value, alias, "")
	f.aliases[alias] = of
}

// writing marks flags that make the command write files (--fix, --write,
// --apply): a mistyped flag is never answered with one of them.
func (f *flags) writing(names ...string) {
	for _, n := range names {
		f.writes[n] = true
	}
}

// dashed is a flag's name as typed: -x for one letter, --name otherwise.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// canonical is the flag an alias stands for, or name itself.
func (f *flags) canonical(name string) string {
	if of, ok := f.aliases[name]; ok {
		return of
	}
	return name
}

// parse parses args as parseInterspersed does. It returns the positional
// arguments, or ok false with the exit code once help, the version or a
// usage error has been printed.
func (f *flags) parse(args []string) (positional []string, code int, ok bool) {
	positional, err := parseInterspersed(f.FlagSet, args)
	if errors.Is(err, flag.ErrHelp) {
		f.help(f.e.stdout)
		return nil, 0, false
	}
	if err != nil {
		return nil, f.usageError("%s", f.explain(err)), false
	}
	if *f.version {
		printVersion(f.e.stdout)
		return nil, 0, false
	}
	return positional, 0, true
}

// parseInterspersed parses args with fs, allowing flags both before and
// after the positional arguments (`charter-lsp check examples/ --format
// json`), which the flag package alone stops at; everything after "--" is
// positional.
func parseInterspersed(fs *flag.FlagSet, args []string) (positional []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" && !takesValue(fs, args, n-1) {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// takesValue reports whether args[i] is the value of the flag before it
// (`--summary --`) rather than the "--" that ends the flags.
func takesValue(fs *flag.FlagSet, args []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := strings.TrimLeft(args[i-1], "-")
	if !strings.HasPrefix(args[i-1], "-") || strings.Contains(prev, "=") {
		return false
	}
	fl := fs.Lookup(prev)
	if fl == nil {
		return false
	}
	b, isBool := fl.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// usageError prints "charter-lsp NAME: message" and where help is, and
// returns 2.
func (f *flags) usageError(format string, args ...any) int {
	return usageError(f.e.stderr, f.name, format, args...)
}

func usageError(w io.Writer, name, format string, args ...any) int {
	prefix, help := "charter-lsp", "charter-lsp -h"
	if name != "" {
		prefix, help = "charter-lsp "+name, "charter-lsp "+name+" -h"
	}
	termtext.Fprintf(w, "%s: %s\nRun '%s' for help.\n", prefix, fmt.Sprintf(format, args...), help)
	return 2
}

var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	needsValue    = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
	badValue      = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:]+): parse error$`)
	dashedName    = regexp.MustCompile(`(flag |for |: )-{1,2}([A-Za-z])`)
)

// explain rewrites the flag package's error in the --name form the help
// uses, and suggests the flag a misspelt one probably meant.
func (f *flags) explain(err error) string {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		msg = "unknown flag " + dashed(m[1])
		if near := f.nearest(m[1]); near != "" {
			msg += " (did you mean " + dashed(near) + "?)"
		}
		return msg
	}
	if m := needsValue.FindStringSubmatch(msg); m != nil {
		return "--" + m[1] + " needs a value"
	}
	if m := badValue.FindStringSubmatch(msg); m != nil {
		// The flag package says only "parse error": say what was wanted.
		want := "want a number"
		if fl := f.Lookup(m[2]); fl != nil {
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				want = "want true or false"
			}
		}
		return fmt.Sprintf("invalid value %s for --%s: %s", m[1], m[2], want)
	}
	return dashedName.ReplaceAllString(msg, "$1--$2")
}

// nearest is the defined flag within two edits of name (and fewer edits
// than name has letters: -x is not "nearly" --fix), if any; never one that
// writes files, which a typo must not lead to.
func (f *flags) nearest(name string) string {
	best, bestD := "", 3
	f.VisitAll(func(fl *flag.Flag) {
		if len(fl.Name) == 1 || f.writes[f.canonical(fl.Name)] {
			return
		}
		if d := textdist.Distance(name, fl.Name); d < bestD && d < len(name) {
			best, bestD = f.canonical(fl.Name), d
		}
	})
	return best
}

// help writes the command's help: synopsis, what it does, its flags.
func (f *flags) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: charter-lsp %s %s\n", f.name, f.synopsis)
	if f.about != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(f.about))
	}
	fmt.Fprintln(w, "\nFlags:")
	names := map[string][]string{} // flag → its long aliases
	shorts := map[string]string{}  // flag → its one-letter form
	for alias, of := range f.aliases {
		if len(alias) == 1 {
			shorts[of] = alias
			continue
		}
		names[of] = append(names[of], alias)
	}
	type row struct{ left, right string }
	var rows []row
	f.VisitAll(func(fl *flag.Flag) {
		if _, isAlias := f.aliases[fl.Name]; isAlias || fl.Name == "version" {
			return
		}
		placeholder, usage := flag.UnquoteUsage(fl)
		left := "--" + fl.Name
		if sh, ok := shorts[fl.Name]; ok {
			left = "-" + sh + ", " + left
		}
		for _, a := range slices.Sorted(slices.Values(names[fl.Name])) {
			left += ", --" + a
		}
		if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			left += " " + strings.ToUpper(placeholder)
		}
		if fl.DefValue != "" && fl.DefValue != "false" && fl.DefValue != "0" && fl.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %s)", fl.DefValue)
		}
		rows = append(rows, row{left, usage})
	})
	rows = append(rows, row{"-h, --help", "show this help"}, row{"-V, --version", "print the version"})
	width := 0
	for _, r := range rows {
		width = max(width, len(r.left))
	}
	for _, r := range rows {
		lines := wrap(r.right, max(helpWidth-width-4, 30))
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(w, "  %-*s  %s\n", width, "", l)
		}
	}
}

// helpWidth is the width help is wrapped to.
const helpWidth = 100

// wrap breaks s into lines of at most n bytes at spaces.
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > n {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// isHelpFlag reports whether arg asks for help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "--h"
}

// asks reports whether args hold a flag that is matches before any "--".
func asks(args []string, is func(string) bool) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if is(a) {
			return true
		}
	}
	return false
}

func isVersionFlag(arg string) bool { return arg == "--version" || arg == "-version" || arg == "-V" }

// choice is a flag whose value is one of a fixed set; a bad value is a
// usage error that names the flag and the set.
type choice struct {
	value   string
	options []string
}

// freshnessFlag defines --freshness, which status and check share, with
// the modes of pi.FreshnessModes; its value is "" when not given.
func (f *flags) freshnessFlag() *choice {
	modes := make([]string, len(pi.FreshnessModes))
	for i, m := range pi.FreshnessModes {
		modes[i] = string(m)
	}
	c := newChoice("", modes...)
	f.Var(c, "freshness", "`mode` of dating source changes: git (in a git work tree the last commit touching the source folders, or the file time of a file changed since; elsewhere mtime) or mtime (newest file time) (default: freshness of the configuration, else git)")
	return c
}

func newChoice(def string, options ...string) *choice { return &choice{value: def, options: options} }

func (c *choice) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *choice) Set(s string) error {
	if !slices.Contains(c.options, s) {
		return fmt.Errorf("want %s", orList(c.options))
	}
	c.value = s
	return nil
}

// orList writes "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// isTerminal reports whether f is an interactive terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && file != nil && term.IsTerminal(int(file.Fd()))
}

// severities is --severity CODE=SEVERITY[,CODE=SEVERITY…], repeatable: the
// configuration's severity key for one run.
type severities map[string]string

func (s severities) String() string {
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(s)) {
		parts = append(parts, code+"="+s[code])
	}
	return strings.Join(parts, ",")
}

func (s severities) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		code, level, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return errors.New("want CODE=SEVERITY, e.g. stale-evidence=error")
		}
		code, level = strings.TrimSpace(code), strings.TrimSpace(level)
		if _, known := diag.ParseCode(code); !known {
			return fmt.Errorf("unknown diagnostic code %q ('charter-lsp rules' lists them)", code)
		}
		if _, err := diag.ParseSeverity(level); err != nil {
			return err
		}
		s[code] = level
	}
	return nil
}
