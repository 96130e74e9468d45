package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Config is everything a user can configure. The same keys are read from the
// project file (.charter-lsp.jsonc), from the editor (initializationOptions
// and workspace/configuration section "charter") and from CLI flags; later
// sources override earlier ones key by key.
type Config struct {
	// Schema lets editors validate the file ("$schema": ".../charter-lsp.schema.json").
	Schema string `json:"$schema,omitempty"`
	// Severity overrides a code's default: "error", "warning",
	// "information", "hint" or "off".
	Severity map[string]string `json:"severity,omitempty"`
	// SourceDirs are the folders, relative to the project (the folder that
	// holds .pi/), whose newest change makes fresh-required evidence stale.
	SourceDirs []string `json:"sourceDirs,omitempty"`
	// Freshness says how the newest source change is dated (pi.Freshness:
	// "git" or "mtime"; unset: pi.DefaultFreshness, git).
	Freshness pi.Freshness `json:"freshness,omitempty"`
	// QuestionBudget is the interview's question budget.
	QuestionBudget int `json:"questionBudget,omitempty"`
	// DebounceMs delays diagnostics after an edit (server only). Nil means default.
	DebounceMs *int `json:"debounceMs,omitempty"`
}

// Defaults.
const (
	DefaultQuestionBudget = 5
	DefaultDebounceMs     = 30
)

// Limits of the numeric settings: the schema (ConfigSchema), ParseConfig and
// DecodeSettings use these, and the editors' settings schemas are tested
// against ConfigSchema.
const (
	MinQuestionBudget = 1
	MaxQuestionBudget = 50
	MaxDebounceMs     = 10000
)

// DefaultSourceDirs is upstream's freshness folder.
var DefaultSourceDirs = pi.DefaultSourceDirs

// ParseConfig reads a project configuration file. JSON with comments and
// trailing commas is accepted (hujson keeps byte offsets, so errors point at
// the right place). Unknown codes and severities are errors: a typo in a
// config file should not silently do nothing.
func ParseConfig(src []byte) (Config, error) {
	var cfg Config
	if err := checkNesting(src); err != nil {
		return cfg, err
	}
	std, err := hujson.Standardize(bytes.Clone(src))
	if err != nil {
		return cfg, configError(src, err)
	}
	// The user-only keys are known, so a project file naming them is not
	// refused whole; they are never read from it (CheckConfigFile says so).
	var file struct {
		Config
		InterviewAgent        json.RawMessage `json:"interviewAgent"`
		InterviewAgentTimeout json.RawMessage `json:"interviewAgentTimeout"`
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		return file.Config, configError(src, err)
	}
	cfg = file.Config
	return cfg, cfg.Validate()
}

// UserOnlyKeys are the settings only the user's own settings carry (the
// editor's user settings, the environment, a command-line flag): the
// interview agent is a program charter-lsp runs, so a project file or the
// workspace's settings never name it.
var UserOnlyKeys = []string{"interviewAgent", "interviewAgentTimeout"}

// UserOnlyIn lists the user-only keys a project file sets, with the span of
// each key's name (for the diagnostic that says they are ignored).
func UserOnlyIn(src []byte) (keys []string, spans []source.Span) {
	std, err := hujson.Standardize(bytes.Clone(src))
	if err != nil || checkNesting(src) != nil {
		return nil, nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(std, &top) != nil {
		return nil, nil
	}
	for _, k := range UserOnlyKeys {
		if _, ok := top[k]; ok {
			at := bytes.Index(src, []byte(`"`+k+`"`))
			span := source.Span{}
			if at >= 0 {
				span = source.Span{Start: at, End: at + len(k) + 2}
			}
			keys, spans = append(keys, k), append(spans, span)
		}
	}
	return keys, spans
}

// maxConfigDepth bounds the nesting of a configuration file; a real one
// is two deep. hujson parses recursively, so a file nested millions deep
// overflowed the stack: a fatal error, not a panic, that ended the process.
const maxConfigDepth = 64

// checkNesting refuses JSONC nested deeper than maxConfigDepth, counting
// brackets outside strings and comments.
func checkNesting(src []byte) error {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return nil // unterminated: hujson reports it
			}
			i += end + 3
		case c == '[' || c == '{':
			if depth++; depth > maxConfigDepth {
				p := source.NewIndex(src).Position(i)
				return fmt.Errorf("line %d, column %d: nested more than %d deep", p.Line+1, p.Character+1, maxConfigDepth)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}

// Validate reports the first invalid value.
func (c Config) Validate() error {
	codes := make([]string, 0, len(c.Severity))
	for code := range c.Severity {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		if _, known := diag.ParseCode(code); !known {
			return fmt.Errorf("severity: unknown diagnostic code %q (see docs/diagnostics.md)", code)
		}
		if _, err := diag.ParseSeverity(c.Severity[code]); err != nil {
			return fmt.Errorf("severity.%s: %v", code, err)
		}
	}
	if _, err := pi.ParseFreshness(string(c.Freshness)); err != nil {
		return fmt.Errorf("freshness: %v", err)
	}
	if c.QuestionBudget < 0 || c.QuestionBudget > MaxQuestionBudget {
		return fmt.Errorf("questionBudget: %d is outside %d..%d", c.QuestionBudget, MinQuestionBudget, MaxQuestionBudget)
	}
	for _, d := range c.SourceDirs {
		if d == "" || filepath.IsAbs(d) || strings.HasPrefix(filepath.Clean(d), "..") {
			return fmt.Errorf("sourceDirs: %q must be a folder inside the project", d)
		}
	}
	if c.DebounceMs != nil && (*c.DebounceMs < 0 || *c.DebounceMs > MaxDebounceMs) {
		return fmt.Errorf("debounceMs: %d is outside 0..%d", *c.DebounceMs, MaxDebounceMs)
	}
	return nil
}

func configError(src []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err
	}
	p := source.NewIndex(src).Position(int(off))
	return fmt.Errorf("line %d, column %d: %v", p.Line+1, p.Character+1, err)
}

// Merge returns c with every key set in o overriding it; severity maps merge
// code by code.
func (c Config) Merge(o Config) Config {
	out := c
	if len(o.Severity) > 0 {
		out.Severity = make(map[string]string, len(c.Severity)+len(o.Severity))
		for k, v := range c.Severity {
			out.Severity[k] = v
		}
		for k, v := range o.Severity {
			out.Severity[k] = v
		}
	}
	if o.SourceDirs != nil {
		out.SourceDirs = o.SourceDirs
	}
	if o.Freshness != "" {
		out.Freshness = o.Freshness
	}
	if o.QuestionBudget != 0 {
		out.QuestionBudget = o.QuestionBudget
	}
	if o.DebounceMs != nil {
		out.DebounceMs = o.DebounceMs
	}
	return out
}

// RestrictedAway lists the keys set in c that Restricted drops: what a
// project file asked for and did not get in an untrusted workspace.
func (c Config) RestrictedAway() []string {
	var keys []string
	if c.SourceDirs != nil {
		keys = append(keys, "sourceDirs")
	}
	if c.Freshness != "" {
		keys = append(keys, "freshness")
	}
	if c.DebounceMs != nil {
		keys = append(keys, "debounceMs")
	}
	return keys
}

// Budget is the question budget with its default.
func (c Config) Budget() int {
	if c.QuestionBudget > 0 {
		return c.QuestionBudget
	}
	return DefaultQuestionBudget
}

// Sources is the freshness folders with their default.
func (c Config) Sources() []string {
	if len(c.SourceDirs) > 0 {
		return c.SourceDirs
	}
	return DefaultSourceDirs
}

// FreshnessMode is the freshness mode with its default.
func (c Config) FreshnessMode() pi.Freshness { return c.Freshness.OrDefault() }

// FindConfigFile looks for a project configuration file in dir and its
// parents, stopping at the first folder that holds .git (the project root).
// Whatever stands at the name counts (reading a folder or a FIFO there
// reports file-not-regular rather than looking further up), and so does a
// file fsys refuses to read (a link out of the workspace: its diagnostic
// says so, rather than a file further up being taken instead).
func FindConfigFile(fsys vfs.FS, dir string) string {
	file, _ := lookupConfig(fsys, dir)
	return file
}

// ConfigRoot is the folder where FindConfigFile stops: the nearest at or
// above dir holding a project configuration file or .git; "" when none
// does.
func ConfigRoot(fsys vfs.FS, dir string) string {
	_, stop := lookupConfig(fsys, dir)
	return stop
}

func lookupConfig(fsys vfs.FS, dir string) (file, stop string) {
	for {
		for _, name := range ConfigFileNames {
			p := filepath.Join(dir, name)
			if _, err := fsys.Stat(p); err == nil || vfs.LeadsOut(err) {
				return p, dir
			}
		}
		if fi, err := fsys.Stat(filepath.Join(dir, ".git")); err == nil && fi != nil {
			return "", dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// ApplySeverity applies the configured severities: overridden codes change
// severity, codes set to "off" are removed.
func (c Config) ApplySeverity(ds []diag.Diagnostic) []diag.Diagnostic {
	if len(c.Severity) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		if name, ok := c.Severity[d.Code.String()]; ok {
			sev, err := diag.ParseSeverity(name)
			if err == nil {
				if sev == diag.SeverityOff {
					continue
				}
				d.Severity = sev
			}
		}
		out = append(out, d)
	}
	return out
}
