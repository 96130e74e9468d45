package analysis

// Config is everything a user can configure. The same keys are read from the
// project file (.charter-lsp.jsonc), from the editor (initializationOptions
// and workspace/configuration section "charter") and from CLI flags; later
// sources override earlier ones key by key.
type Config struct {
	// Severity overrides a code's default: "error", "warning",
	// "information", "hint" or "off".
	Severity map[string]string `json:"severity,omitempty"`
	// SourceDirs are the folders, relative to the project (the folder that
	// holds .pi/), whose newest change makes fresh-required evidence stale.
	SourceDirs []string `json:"sourceDirs,omitempty"`
	// Freshness is "mtime" (newest file time, upstream's rule) or "git"
	// (time of the last commit touching SourceDirs).
	Freshness string `json:"freshness,omitempty"`
	// QuestionBudget is the interview's question budget.
	QuestionBudget int `json:"questionBudget,omitempty"`
	// DebounceMs delays diagnostics after an edit (server only). Nil means default.
	DebounceMs *int `json:"debounceMs,omitempty"`
}

// Defaults.
const (
	DefaultQuestionBudget = 5
	DefaultFreshness      = "mtime"
	DefaultDebounceMs     = 30
)

// DefaultSourceDirs is upstream's freshness folder.
var DefaultSourceDirs = []string{"src"}
