package analysis

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// The checks of one file, by kind. Whoever holds the file's text and parse
// (the server's snapshot, the CLI) calls the one for its kind, then Finish.
// Each returns unlocated diagnostics (byte spans) unless it says otherwise.

// CheckRP1 returns an rp1 charter's diagnostics, or ctx's error when ctx is
// done first.
func CheckRP1(ctx context.Context, ch *rp1.Charter, cfg Config) ([]diag.Diagnostic, error) {
	return rp1.CheckContext(ctx, ch, rp1.Options{QuestionBudget: cfg.Budget(), RP1Style: true})
}

// CheckConfigFile returns config-invalid when a project configuration file
// does not parse, and a warning for each user-only key it names (ignored).
func CheckConfigFile(src []byte) []diag.Diagnostic {
	_, err := ParseConfig(src)
	var ce *ConfigError
	switch {
	case errors.As(err, &ce):
		return []diag.Diagnostic{diag.New(diag.ConfigInvalid, ce.Span, "%s", ce.Msg)}
	case err != nil:
		return []diag.Diagnostic{diag.New(diag.ConfigInvalid, source.Span{}, "%v", err)}
	}
	var ds []diag.Diagnostic
	keys, spans := UserOnlyIn(src)
	for i, k := range keys {
		d := diag.New(diag.ConfigInvalid, spans[i], "%s is ignored here: %s", k, UserOnlyWhy)
		d.Severity = diag.SeverityWarning
		ds = append(ds, d)
	}
	return ds
}

// UserOnlyWhy says why a project file or workspace settings cannot name
// the interview agent, and where to name it.
const UserOnlyWhy = "the interview agent is a program charter-lsp runs, so only your user settings name it " +
	"(VS Code's user setting charter.interviewAgent, Neovim's setup({ agent = … }) or the server's initializationOptions, " +
	"the CHARTER_LSP_AGENT environment variable, or charter-lsp interview --agent), never a project file or workspace settings"

// Finish completes the diagnostics of one file: located against ix (those
// not located yet), filtered by the file's inline suppression comments
// (markdown only), with the configured severities applied, sorted, and at
// most diag.MaxPerCode of each code (diag.Limit).
func Finish(ds []diag.Diagnostic, path string, ix *source.Index, cfg Config) []diag.Diagnostic {
	if slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.File == "" }) {
		// Located in a copy: the caller's may be a parse's, shared.
		located := slices.Clone(ds)
		for i := range located {
			if located[i].File == "" {
				diag.Locate(located[i:i+1], path, ix)
			}
		}
		ds = located
	}
	if strings.HasSuffix(strings.ToLower(path), ".md") {
		sup := ParseSuppressions(ix)
		ds = sup.Filter(ds)
		extra := append(sup.Unknown(), sup.Unused(ix.Source())...)
		diag.Locate(extra, path, ix)
		ds = append(ds, extra...)
	}
	ds = cfg.ApplySeverity(ds)
	diag.Sort(ds)
	// Limit adds analysis-capped notes, which take their severity too.
	return cfg.ApplySeverity(diag.Limit(ds))
}
