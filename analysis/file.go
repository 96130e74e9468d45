package analysis

import (
	"context"
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
// does not parse.
func CheckConfigFile(src []byte) []diag.Diagnostic {
	if _, err := ParseConfig(src); err != nil {
		return []diag.Diagnostic{diag.New(diag.ConfigInvalid, source.Span{}, "%v", err)}
	}
	return nil
}

// Finish completes the diagnostics of one file: located against ix (those
// not located yet), filtered by the file's inline suppression comments
// (markdown only), with the configured severities applied, sorted, and at
// most diag.MaxPerCode of each code (diag.Limit).
func Finish(ds []diag.Diagnostic, path string, ix *source.Index, cfg Config) []diag.Diagnostic {
	var todo []diag.Diagnostic
	for i := range ds {
		if ds[i].File == "" {
			todo = append(todo, ds[i])
		}
	}
	if len(todo) > 0 {
		located := ds[:0:0]
		for _, d := range ds {
			if d.File == "" {
				one := []diag.Diagnostic{d}
				diag.Locate(one, path, ix)
				d = one[0]
			}
			located = append(located, d)
		}
		ds = located
	}
	if strings.HasSuffix(strings.ToLower(path), ".md") {
		sup := ParseSuppressions(ix)
		ds = sup.Filter(ds)
		unknown := sup.Unknown()
		diag.Locate(unknown, path, ix)
		ds = append(ds, unknown...)
	}
	ds = cfg.ApplySeverity(ds)
	diag.Sort(ds)
	// Limit adds analysis-capped notes, which take their severity too.
	return cfg.ApplySeverity(diag.Limit(ds))
}
