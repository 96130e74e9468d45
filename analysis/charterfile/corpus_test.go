package charterfile

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

var update = flag.Bool("update", false, "rewrite the reading and diagnostics sections of testdata/corpus (review the diff)")

// A corpus case is a text file of sections, as in txtar:
//
//	description
//	-- charter.md --
//	…
//	-- state.json --          (optional)
//	-- events.jsonl --        (optional)
//	-- folder --              (optional: the folder name, one line)
//	-- reading.json --        upstream's reading, as its parser returns it
//	-- diagnostics --         "file:line code" per diagnostic
//
// A file section named "charter.md crlf" is written with CRLF line endings.
// The format is parsed here rather than with golang.org/x/tools/txtar: the
// whole of x/tools for thirty lines was not worth the dependency.
type corpusCase struct {
	comment  string
	names    []string
	sections map[string]string
}

func parseCase(src string) corpusCase {
	c := corpusCase{sections: map[string]string{}}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			c.comment = b.String()
		} else {
			c.sections[cur] = b.String()
			c.names = append(c.names, cur)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(src, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimRight(line, "\n"), " --") {
			flush()
			cur = strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(line, "\n"), "-- "), " --")
			continue
		}
		b.WriteString(line)
	}
	flush()
	return c
}

func (c corpusCase) format() string {
	var b strings.Builder
	b.WriteString(c.comment)
	for _, n := range c.names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, c.sections[n])
	}
	return b.String()
}

// reading is the model as upstream's parser returns it (ParsedCharterFile),
// plus what the folder says about it.
type reading struct {
	Generation string `json:"generation"`
	Mismatch   bool   `json:"mismatch,omitempty"`
	// Why is the era's reasons, then what would change it.
	Why        []string       `json:"why,omitempty"`
	Listed     bool           `json:"listed"`
	Objective  string         `json:"objective"`
	References string         `json:"references,omitempty"`
	Scope      string         `json:"scope,omitempty"`
	Notes      string         `json:"notes,omitempty"`
	OpenEnded  *bool          `json:"openEnded,omitempty"`
	Criteria   []readCriteria `json:"criteria,omitempty"`
	Phases     []readPhase    `json:"phases,omitempty"`
	Warnings   []string       `json:"warnings"`
	History    *int           `json:"history,omitempty"`
}

type readCriteria struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	Depends []string `json:"depends"`
	Status  string   `json:"status"`
	Note    string   `json:"note"`
	Line    int      `json:"line"`
}

type readPhase struct {
	Number float64 `json:"number"`
	Title  string  `json:"title"`
	Status string  `json:"status"`
	Body   string  `json:"body"`
}

func readingOf(d *Dir) reading {
	c := d.Charter
	r := reading{Generation: string(d.Era.Generation), Mismatch: d.Era.Mismatch, Listed: d.Listed(), Warnings: []string{}}
	if c != nil {
		r.Why = append(d.Era.Strings(), "otherwise: "+d.Era.Otherwise)
		r.Objective, r.References, r.Scope, r.Notes = c.Objective.Text, c.References.Text, c.Scope.Text, c.Notes
		if c.Generation.FileInterface() {
			open := len(c.Criteria) == 0
			r.OpenEnded = &open
		}
		for _, cr := range c.Criteria {
			deps := cr.Depends
			if deps == nil {
				deps = []string{}
			}
			r.Criteria = append(r.Criteria, readCriteria{cr.ID, cr.Title, cr.Body, deps, string(cr.Status), cr.Note, cr.Line})
		}
		for _, p := range c.Phases {
			r.Phases = append(r.Phases, readPhase{p.Number, p.Title, string(p.Status), p.Body})
		}
		for _, w := range c.Warnings {
			r.Warnings = append(r.Warnings, w.Text)
		}
	}
	if d.Events != nil {
		n := len(d.Events.History)
		r.History = &n
	}
	return r
}

// TestCorpus reads every case of testdata/corpus as a .charters/<id>
// folder and compares upstream's reading and our diagnostics with the
// case's expectations.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(file, filepath.Join("testdata", "corpus")+string(filepath.Separator)), ".txt")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := parseCase(string(raw))
			dir := writeCase(t, c)
			d := LoadDir(vfs.OS, dir)
			gotReading := marshalReading(t, readingOf(d))
			gotDiags := diagnosticLines(d)
			if *update {
				c.set("reading.json", gotReading)
				c.set("diagnostics", gotDiags)
				if err := os.WriteFile(file, []byte(c.format()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := c.sections["reading.json"]; want != gotReading {
				t.Errorf("reading differs (go test -run TestCorpus -update rewrites it):\n--- got\n%s--- want\n%s", gotReading, want)
			}
			if want := c.sections["diagnostics"]; want != gotDiags {
				t.Errorf("diagnostics differ (go test -run TestCorpus -update rewrites them):\n--- got\n%s--- want\n%s", gotDiags, want)
			}
		})
	}
}

func (c *corpusCase) set(name, content string) {
	if _, ok := c.sections[name]; !ok {
		c.names = append(c.names, name)
	}
	c.sections[name] = content
}

// writeCase writes the case's files into <tmp>/.charters/<folder>/.
func writeCase(t *testing.T, c corpusCase) string {
	t.Helper()
	folder := "20260702-101500-example"
	if f, ok := c.sections["folder"]; ok {
		folder = strings.TrimSpace(f)
	}
	dir := filepath.Join(t.TempDir(), ".charters", folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range c.names {
		file, crlf := strings.CutSuffix(n, " crlf")
		if file != CharterFile && file != StateFile && file != EventsFile {
			continue
		}
		content := c.sections[n]
		if crlf {
			content = strings.ReplaceAll(content, "\n", "\r\n")
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func marshalReading(t *testing.T, r reading) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// diagnosticLines lists "file:line code" (1-based lines), by file and line.
func diagnosticLines(d *Dir) string {
	type entry struct {
		file string
		line int
		code string
	}
	var es []entry
	for path, ds := range Check(d) {
		for _, dg := range ds {
			es = append(es, entry{filepath.Base(path), dg.Range.Start.Line + 1, dg.Code.String()})
		}
	}
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.code < b.code
	})
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s:%d %s\n", e.file, e.line, e.code)
	}
	return b.String()
}
