package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/textdist"
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
		return cfg, syntaxError(src, err)
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
		return file.Config, decodeError(src, err)
	}
	cfg = file.Config
	if err := cfg.Validate(); err != nil {
		return cfg, placed(src, err)
	}
	return cfg, nil
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

// ConfigError is what is wrong with a configuration file, and where: the
// key or value at fault. Error says the line and column too, for a message
// that cannot point (check --config FILE); a diagnostic sits on Span and
// says Msg.
type ConfigError struct {
	Span source.Span
	Msg  string
	src  []byte
}

func (e *ConfigError) Error() string {
	p := source.NewIndex(e.src).Position(e.Span.Start)
	return fmt.Sprintf("line %d, column %d: %s", p.Line+1, p.Character+1, e.Msg)
}

// keyError is a problem with one key or value, named by its path from the
// top (["severity", "stale-evidence"]); key says it is the key's name, not
// its value, that is wrong. Validate returns it; placed finds it in the file.
type keyError struct {
	path []string
	key  bool
	msg  string
}

func (e *keyError) Error() string {
	var names []string
	for _, p := range e.path {
		if !strings.HasPrefix(p, "[") { // an array index: the key names the list
			names = append(names, p)
		}
	}
	return strings.Join(names, ".") + ": " + e.msg
}

// placed is err at the place in src its path names.
func placed(src []byte, err error) error {
	var ke *keyError
	if !errors.As(err, &ke) {
		return err
	}
	return at(src, ke.path, ke.key, ke.Error())
}

// at is the error msg at the value (or the key's name) at path in src.
func at(src []byte, path []string, key bool, msg string) *ConfigError {
	root, err := hujson.Parse(src)
	span := source.Span{}
	if err == nil {
		span = locate(&root, path, key)
	}
	return &ConfigError{Span: span, Msg: msg, src: src}
}

// locate is the span of the value at path in v (or of its key's name),
// or of the deepest part of the path that exists.
func locate(v *hujson.Value, path []string, key bool) source.Span {
	span := source.Span{Start: v.StartOffset, End: v.EndOffset}
	for i, name := range path {
		if arr, ok := v.Value.(*hujson.Array); ok && strings.HasPrefix(name, "[") {
			n, err := strconv.Atoi(strings.Trim(name, "[]"))
			if err != nil || n < 0 || n >= len(arr.Elements) {
				return span
			}
			v = &arr.Elements[n]
			span = source.Span{Start: v.StartOffset, End: v.EndOffset}
			continue
		}
		obj, ok := v.Value.(*hujson.Object)
		if !ok {
			return span
		}
		found := false
		for j := range obj.Members {
			m := &obj.Members[j]
			if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
				if key && i == len(path)-1 {
					return source.Span{Start: m.Name.StartOffset, End: m.Name.EndOffset}
				}
				v, found = &m.Value, true
				span = source.Span{Start: v.StartOffset, End: v.EndOffset}
				break
			}
		}
		if !found {
			return span
		}
	}
	return span
}

// syntaxError places hujson's "line L, column C: …" error.
func syntaxError(src []byte, err error) error {
	m := hujsonPosition.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	ix := source.NewIndex(src)
	at := min(ix.LineStart(line-1)+col-1, len(src))
	return &ConfigError{Span: source.Span{Start: at, End: at}, Msg: m[3], src: src}
}

var hujsonPosition = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

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
			return &keyError{path: []string{"severity", code}, key: true, msg: fmt.Sprintf("unknown diagnostic code %q (see docs/diagnostics.md)", code)}
		}
		if _, err := diag.ParseSeverity(c.Severity[code]); err != nil {
			return &keyError{path: []string{"severity", code}, msg: err.Error()}
		}
	}
	if _, err := pi.ParseFreshness(string(c.Freshness)); err != nil {
		return &keyError{path: []string{"freshness"}, msg: err.Error()}
	}
	if c.QuestionBudget < 0 || c.QuestionBudget > MaxQuestionBudget {
		return &keyError{path: []string{"questionBudget"}, msg: fmt.Sprintf("%d is outside %d..%d", c.QuestionBudget, MinQuestionBudget, MaxQuestionBudget)}
	}
	for i, d := range c.SourceDirs {
		if d == "" || filepath.IsAbs(d) || strings.HasPrefix(filepath.Clean(d), "..") {
			return &keyError{path: []string{"sourceDirs", "[" + strconv.Itoa(i) + "]"}, msg: fmt.Sprintf("%q must be a folder inside the project", d)}
		}
	}
	if c.DebounceMs != nil && (*c.DebounceMs < 0 || *c.DebounceMs > MaxDebounceMs) {
		return &keyError{path: []string{"debounceMs"}, msg: fmt.Sprintf("%d is outside 0..%d", *c.DebounceMs, MaxDebounceMs)}
	}
	return nil
}

// decodeError says what encoding/json found wrong in the file's terms (a
// key, a JSON type, the kind of value the key takes), at the value or key.
func decodeError(src []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		// The offset is the end of the offending value: the deepest value
		// there is the one, a map's member too (te.Field names only the map).
		root, perr := hujson.Parse(src)
		if perr != nil {
			return err
		}
		v, path := valueEndingAt(&root, int(te.Offset), nil)
		what, _, _ := strings.Cut(te.Value, " ") // "number 1.5" → number
		want := "an object of settings"
		if len(path) > 0 {
			want = configWants[path[0]]
			if len(path) > 1 && path[0] == "severity" {
				want = "a severity name"
			}
		}
		msg := fmt.Sprintf("%s where %s belongs", article(what), want)
		if len(path) > 0 {
			msg = strings.Join(path, ".") + ": " + msg
		}
		return &ConfigError{Span: source.Span{Start: v.StartOffset, End: v.EndOffset}, Msg: msg, src: src}
	case errors.As(err, &se):
		at := min(int(se.Offset), len(src))
		return &ConfigError{Span: source.Span{Start: at, End: at}, Msg: strings.TrimPrefix(se.Error(), "json: "), src: src}
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		msg := fmt.Sprintf("unknown key %q", m[1])
		if near := nearestKey(m[1]); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		} else {
			msg += " (the keys: " + strings.Join(configKeys(), ", ") + ")"
		}
		return at(src, []string{m[1]}, true, msg)
	}
	return err
}

var unknownField = regexp.MustCompile(`^json: unknown field "(.*)"$`)

// configWants says what each key takes, in the file's terms.
var configWants = map[string]string{
	"$schema":        "a URL",
	"severity":       "an object of code: severity",
	"sourceDirs":     "a list of folders",
	"freshness":      "a string",
	"questionBudget": "a number",
	"debounceMs":     "a number",
}

// article is "a string", "an array", "an object".
func article(jsonType string) string {
	if strings.ContainsRune("aeiou", rune(jsonType[0])) {
		return "an " + jsonType
	}
	return "a " + jsonType
}

// valueEndingAt is the deepest value in v that ends at off, with its path.
func valueEndingAt(v *hujson.Value, off int, path []string) (*hujson.Value, []string) {
	switch c := v.Value.(type) {
	case *hujson.Object:
		for i := range c.Members {
			m := &c.Members[i]
			if m.Value.StartOffset < off && off <= m.Value.EndOffset {
				name := ""
				if lit, ok := m.Name.Value.(hujson.Literal); ok {
					name = lit.String()
				}
				return valueEndingAt(&m.Value, off, append(path, name))
			}
		}
	case *hujson.Array:
		for i := range c.Elements {
			if e := &c.Elements[i]; e.StartOffset < off && off <= e.EndOffset {
				return valueEndingAt(e, off, path)
			}
		}
	}
	return v, path
}

// configKeys are the keys a configuration file may hold, in the order of
// Config's fields.
func configKeys() []string {
	t := reflect.TypeFor[Config]()
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// nearestKey is the key within two edits of name, if any.
func nearestKey(name string) string {
	best, bestD := "", 3
	for _, k := range configKeys() {
		if d := textdist.Distance(strings.ToLower(name), strings.ToLower(k)); d < bestD && d < len(name) {
			best, bestD = k, d
		}
	}
	return best
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

// Effective is c with every default filled in (what applies), for showing
// the configuration (check --print-config).
func (c Config) Effective() Config {
	out := c
	out.Schema = ""
	if out.Severity == nil {
		out.Severity = map[string]string{}
	}
	out.SourceDirs = c.Sources()
	out.Freshness = c.FreshnessMode()
	out.QuestionBudget = c.Budget()
	if out.DebounceMs == nil {
		d := DefaultDebounceMs
		out.DebounceMs = &d
	}
	return out
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
		if file, stops := ConfigIn(fsys, dir); stops {
			return file, dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// ConfigIn is one step of FindConfigFile: the project configuration file
// dir holds (file), and whether the lookup stops at dir (it holds one, or
// .git). A caller that looks up many folders (the workspace, for every
// file it checks) memoizes the steps and shares the parents' answers.
func ConfigIn(fsys vfs.FS, dir string) (file string, stops bool) {
	listed, _ := fsys.(vfs.ListingHolder)
	absent := func(name string) bool {
		if listed == nil {
			return false
		}
		has, known := listed.Holds(dir, name)
		return known && !has
	}
	for _, name := range ConfigFileNames {
		if absent(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if _, err := fsys.Stat(p); err == nil || vfs.LeadsOut(err) {
			return p, true
		}
	}
	if absent(".git") {
		return "", false
	}
	if fi, err := fsys.Stat(filepath.Join(dir, ".git")); err == nil && fi != nil {
		return "", true
	}
	return "", false
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
