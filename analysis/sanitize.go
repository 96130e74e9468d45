package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// DecodeSettings reads settings an editor sends (initializationOptions,
// workspace/configuration). Editors add keys of their own, so unknown keys
// are ignored. A value that is out of range is clamped, and one that is
// invalid is left out, each with a warning: one bad setting never discards
// the others (severities included).
func DecodeSettings(raw []byte) (Config, []string) {
	var cfg Config
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return cfg, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return cfg, []string{fmt.Sprintf("settings are not a JSON object (%v); using the defaults", err)}
	}
	var warnings []string
	warn := func(format string, args ...any) { warnings = append(warnings, fmt.Sprintf(format, args...)) }
	decode := func(key string, v any) bool {
		r, ok := keys[key]
		if !ok || bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
			return false
		}
		if err := json.Unmarshal(r, v); err != nil {
			warn("%s: %s is not a valid value; ignored", key, bytes.TrimSpace(r))
			return false
		}
		return true
	}
	var severity map[string]string
	if decode("severity", &severity) {
		names := make([]string, 0, len(severity))
		for k := range severity {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, code := range names {
			if _, known := diag.ParseCode(code); !known {
				warn("severity: unknown diagnostic code %q; ignored (see docs/diagnostics.md)", code)
				continue
			}
			if _, err := diag.ParseSeverity(severity[code]); err != nil {
				warn("severity.%s: %v; ignored", code, err)
				continue
			}
			if cfg.Severity == nil {
				cfg.Severity = map[string]string{}
			}
			cfg.Severity[code] = severity[code]
		}
	}
	var dirs []string
	if decode("sourceDirs", &dirs) {
		cfg.SourceDirs = []string{}
		for _, d := range dirs {
			if d == "" || filepath.IsAbs(d) || strings.HasPrefix(filepath.Clean(d), "..") {
				warn("sourceDirs: %q must be a folder inside the project; ignored", d)
				continue
			}
			cfg.SourceDirs = append(cfg.SourceDirs, d)
		}
		if len(cfg.SourceDirs) == 0 {
			cfg.SourceDirs = nil
		}
	}
	var freshness string
	if decode("freshness", &freshness) {
		if _, err := pi.ParseFreshness(freshness); err != nil {
			warn("freshness: %v; using %q", err, pi.DefaultFreshness)
		} else {
			cfg.Freshness = pi.Freshness(freshness)
		}
	}
	var budget int
	if decode("questionBudget", &budget) {
		cfg.QuestionBudget = clamp("questionBudget", budget, MinQuestionBudget, MaxQuestionBudget, warn)
	}
	var debounce int
	if decode("debounceMs", &debounce) {
		d := clamp("debounceMs", debounce, 0, MaxDebounceMs, warn)
		cfg.DebounceMs = &d
	}
	return cfg, warnings
}

func clamp(key string, v, lo, hi int, warn func(string, ...any)) int {
	switch {
	case v < lo:
		warn("%s: %d is below %d; using %d", key, v, lo, lo)
		return lo
	case v > hi:
		warn("%s: %d is above %d; using %d", key, v, hi, hi)
		return hi
	}
	return v
}
