package marker

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/txtar"
)

// A test is one archive: its workspace files, with the markers taken out of
// them, and what the markers expect.
type test struct {
	name    string // the archive's path under the test directory, for t.Run
	file    string // the archive's path, for messages
	archive *txtar.Archive

	files    []*file // workspace files, in archive order
	golden   map[string]*golden
	settings settings
	flags    flags
	mtimes   []mtime
	marks    []*mark
}

// A file is one workspace file as the server sees it.
type file struct {
	path  string // slash-separated, relative to the workspace root
	text  string // markers removed; CRLF line ends if the test asks for them
	lines []int  // archive line of each line of text (1-based), for messages
}

// A golden section (`-- @name --`, `-- @name/path --`, `-- @name:part --`)
// holds a long expectation that -update rewrites.
type golden struct {
	name    string
	entries map[string]string // by what follows the name: "", "/path", ":part"
	used    bool
	// updated holds what the markers got, under -update.
	updated map[string]string
}

// settings.json: what the editor tells the server.
type settings struct {
	InitializationOptions map[string]any  `json:"initializationOptions"`
	Settings              any             `json:"settings"`     // the answer to workspace/configuration "charter"
	Capabilities          json.RawMessage `json:"capabilities"` // replaces the default editor capabilities
}

// flags come from the flags section, as command-line flags.
type flags struct {
	binary           bool     // also run through the built binary over stdio
	ignoreExtraDiags bool     // diagnostics without a marker are not an error
	cli              bool     // the CLI's analysis must find exactly the published diagnostics
	open             []string // the documents the editor opens (path globs); default every file
	crlf             []string // files written and opened with CRLF line ends
}

// An mtime sets a file's modification time; path "*" sets every file's.
type mtime struct {
	path string
	at   time.Time
}

// A mark is one marker call with the place it speaks of.
type mark struct {
	call
	file *file
	line int    // 0-based line of file.text the marker applies to
	pos  string // archive:line, for messages
}

// Sections with a meaning of their own; every other name is a workspace
// file, except goldens (`@…`).
const (
	sectionFlags    = "flags"
	sectionSettings = "settings.json"
	sectionMarkers  = "markers"
	sectionMtimes   = "mtimes"
)

// load reads one archive.
func load(name, filename string) (*test, error) {
	data, err := os.ReadFile(filename)
	if err != nil {
		return nil, err
	}
	t := &test{name: name, file: filename, archive: txtar.Parse(data), golden: map[string]*golden{}}
	// Archive line of each section's first content line.
	starts := sectionStarts(data, t.archive)

	var markerLines []string
	var markerStart int
	for i, f := range t.archive.Files {
		text := string(f.Data)
		switch {
		case f.Name == sectionFlags:
			if err := t.flags.parse(text); err != nil {
				return nil, fmt.Errorf("%s: flags: %v", filename, err)
			}
		case f.Name == sectionSettings:
			if err := json.Unmarshal(f.Data, &t.settings); err != nil {
				return nil, fmt.Errorf("%s: settings.json: %v", filename, err)
			}
		case f.Name == sectionMarkers:
			markerLines, markerStart = strings.Split(text, "\n"), starts[i]
		case f.Name == sectionMtimes:
			if err := t.parseMtimes(text); err != nil {
				return nil, fmt.Errorf("%s: mtimes: %v", filename, err)
			}
		case strings.HasPrefix(f.Name, "@"):
			gname, rest := splitGolden(f.Name)
			g := t.golden[gname]
			if g == nil {
				g = &golden{name: gname, entries: map[string]string{}}
				t.golden[gname] = g
			}
			g.entries[rest] = text
		default:
			if err := t.addFile(f.Name, text, starts[i]); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range t.flags.crlf {
		f := t.lookup(p)
		if f == nil {
			return nil, fmt.Errorf("%s: -crlf names %s, which is not a file of the archive", filename, p)
		}
		f.text = strings.ReplaceAll(f.text, "\n", "\r\n")
	}
	for i, line := range markerLines {
		if err := t.addAnchoredMarks(line, markerStart+i); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", filename, markerStart+i, err)
		}
	}
	return t, nil
}

// sectionStarts finds the archive line (1-based) where each file's content
// starts.
func sectionStarts(data []byte, a *txtar.Archive) []int {
	lines := strings.Split(string(data), "\n")
	out := make([]int, len(a.Files))
	next := 0
	for i, l := range lines {
		if next < len(a.Files) && l == "-- "+a.Files[next].Name+" --" {
			out[next] = i + 2
			next++
		}
	}
	return out
}

// splitGolden splits "@name/path" or "@name:part" into "name" and the rest.
func splitGolden(section string) (name, rest string) {
	s := strings.TrimPrefix(section, "@")
	if i := strings.IndexAny(s, "/:"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

func (fl *flags) parse(text string) error {
	fs := flag.NewFlagSet("flags", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	fs.BoolVar(&fl.binary, "binary", false, "")
	fs.BoolVar(&fl.ignoreExtraDiags, "ignore_extra_diags", false, "")
	fs.BoolVar(&fl.cli, "cli", false, "")
	list := func(name string, into *[]string) {
		fs.Func(name, "", func(s string) error {
			*into = append(*into, strings.Split(s, ",")...)
			return nil
		})
	}
	list("open", &fl.open)
	list("crlf", &fl.crlf)
	if err := fs.Parse(strings.Fields(text)); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected %q", fs.Arg(0))
	}
	return nil
}

func (t *test) parseMtimes(text string) error {
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 2 {
			return fmt.Errorf("want `path time`, got %q", line)
		}
		at, err := time.Parse(time.RFC3339, fields[1])
		if err != nil {
			return err
		}
		t.mtimes = append(t.mtimes, mtime{fields[0], at})
	}
	// "*" first, so a file's own time wins.
	sort.SliceStable(t.mtimes, func(i, j int) bool { return t.mtimes[i].path == "*" && t.mtimes[j].path != "*" })
	return nil
}

// lookup finds a workspace file by its path or by a unique suffix of it
// that starts after a slash ("criteria.md" for
// ".pi/charters/auth/criteria.md").
func (t *test) lookup(p string) *file {
	var found *file
	for _, f := range t.files {
		if f.path == p {
			return f
		}
		if strings.HasSuffix(f.path, "/"+p) {
			if found != nil {
				return nil // ambiguous
			}
			found = f
		}
	}
	return found
}

// shortName is the shortest suffix of a file's path that names it.
func (t *test) shortName(p string) string {
	parts := strings.Split(p, "/")
	for i := len(parts) - 1; i > 0; i-- {
		if short := strings.Join(parts[i:], "/"); t.lookup(short) != nil {
			return short
		}
	}
	return p
}

// addFile adds a workspace file; in markdown the markers are taken out.
func (t *test) addFile(name, text string, start int) error {
	if clean := path.Clean(name); clean != name || path.IsAbs(name) || strings.HasPrefix(name, "../") {
		return fmt.Errorf("%s:%d: file %q: want a clean relative path", t.file, start-1, name)
	}
	f := &file{path: name}
	t.files = append(t.files, f)
	if !strings.HasSuffix(strings.ToLower(name), ".md") {
		f.text = text
		for i := range strings.Count(text, "\n") + 1 {
			f.lines = append(f.lines, start+i)
		}
		return nil
	}
	clean, comments, lines, err := stripMarkers(text)
	if err != nil {
		return fmt.Errorf("%s:%d: %s: %v", t.file, start, name, err)
	}
	f.text = clean
	for i := range lines {
		lines[i] += start
	}
	f.lines = lines
	for _, c := range comments {
		calls, err := parseCalls(c.body)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", t.file, start+c.line, err)
		}
		for _, call := range calls {
			t.marks = append(t.marks, &mark{call: call, file: f, line: c.target, pos: fmt.Sprintf("%s:%d", t.file, start+c.line)})
		}
	}
	return nil
}

// addAnchoredMarks reads one line of the markers section.
func (t *test) addAnchoredMarks(line string, archiveLine int) error {
	if s := strings.TrimSpace(line); s == "" || strings.HasPrefix(s, "#") {
		return nil
	}
	anchor, calls, err := parseAnchoredCalls(line)
	if err != nil {
		return err
	}
	f := t.lookup(anchor.str)
	if f == nil {
		return fmt.Errorf("no file (or more than one) is called %s", anchor.str)
	}
	loc := anchor.re.FindStringIndex(f.text)
	if loc == nil {
		return fmt.Errorf("%s has no match for %s", f.path, anchor)
	}
	target := strings.Count(f.text[:loc[0]], "\n")
	for _, c := range calls {
		t.marks = append(t.marks, &mark{call: c, file: f, line: target, pos: fmt.Sprintf("%s:%d", t.file, archiveLine)})
	}
	return nil
}

// A comment is one marker comment found in a markdown file.
type comment struct {
	body   string // between "<!--@" and "-->"
	line   int    // 0-based line of the file where it starts
	target int    // 0-based line of the clean text it speaks of
}

// stripMarkers takes the marker comments (<!--@ … -->) out of markdown
// text. A comment alone on its line(s) goes with its lines and speaks of
// the next line that remains; a comment after text on a line goes with the
// blanks before it and speaks of its own line. lines maps each line of the
// clean text to its 0-based line in text.
func stripMarkers(text string) (clean string, comments []comment, lines []int, err error) {
	const open, closing = "<!--@", "-->"
	var out strings.Builder
	var pending []comment // own-line comments waiting for the next line
	src := strings.SplitAfter(text, "\n")
	cleanLine := 0
	for i := 0; i < len(src); i++ {
		first := i
		line := src[i]
		// A comment may span lines: join until it closes.
		for {
			j := strings.LastIndex(line, open)
			if j < 0 || strings.Contains(line[j:], closing) {
				break
			}
			if i+1 >= len(src) {
				return "", nil, nil, fmt.Errorf("the marker comment of its line %d is not closed with -->", first+1)
			}
			i++
			line += src[i]
		}
		if !strings.Contains(line, open) {
			if line == "" {
				continue
			}
			out.WriteString(line)
			for _, c := range pending {
				c.target = cleanLine
				comments = append(comments, c)
			}
			pending = nil
			lines = append(lines, first)
			cleanLine++
			continue
		}
		var rest strings.Builder
		var found []comment
		s := line
		for {
			j := strings.Index(s, open)
			if j < 0 {
				rest.WriteString(s)
				break
			}
			k := strings.Index(s[j:], closing)
			before := strings.TrimRight(s[:j], " \t")
			rest.WriteString(before)
			found = append(found, comment{body: s[j+len(open) : j+k], line: first + strings.Count(line[:len(line)-len(s)+j], "\n")})
			s = s[j+k+len(closing):]
		}
		remaining := rest.String()
		if strings.TrimSpace(remaining) == "" {
			pending = append(pending, found...)
			continue
		}
		out.WriteString(remaining)
		for _, c := range append(pending, found...) {
			c.target = cleanLine
			comments = append(comments, c)
		}
		pending = nil
		lines = append(lines, first)
		cleanLine++
	}
	// Comments on the last lines speak of the end of the file.
	for _, c := range pending {
		c.target = strings.Count(out.String(), "\n")
		comments = append(comments, c)
	}
	if len(lines) == 0 || strings.HasSuffix(out.String(), "\n") {
		lines = append(lines, len(src))
	}
	return out.String(), comments, lines, nil
}
