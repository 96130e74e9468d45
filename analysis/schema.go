package analysis

import (
	"encoding/json"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// ConfigSchema is the JSON schema of .charter-lsp.jsonc, written to
// docs/charter-lsp.schema.json by internal/gendocs. The code list comes from
// the catalogue, so the schema cannot drift from the checks.
// SchemaURL is where the configuration's JSON schema is served as JSON,
// for a configuration file's "$schema".
const SchemaURL = "https://raw.githubusercontent.com/charter-lsp/charter-lsp/main/docs/charter-lsp.schema.json"

func ConfigSchema() []byte {
	codes := make([]string, 0, len(diag.Rules))
	for _, r := range diag.Rules {
		codes = append(codes, r.Name)
	}
	severity := map[string]any{"enum": []string{"error", "warning", "information", "hint", "off"}}
	schema := map[string]any{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"$id":                  "https://github.com/charter-lsp/charter-lsp/blob/main/docs/charter-lsp.schema.json",
		"title":                "charter-lsp configuration (.charter-lsp.jsonc)",
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"$schema": map[string]any{"type": "string"},
			"severity": map[string]any{
				"description":          "Change a diagnostic code's severity, or switch it off. Codes: docs/diagnostics.md.",
				"type":                 "object",
				"propertyNames":        map[string]any{"enum": codes},
				"additionalProperties": severity,
			},
			"sourceDirs": map[string]any{
				"description": "Folders, relative to the project (the folder holding .pi/), whose newest change makes fresh-required evidence stale.",
				"type":        "array",
				"items":       map[string]any{"type": "string", "minLength": 1},
				"default":     DefaultSourceDirs,
			},
			"freshness": map[string]any{
				"description": "How the newest source change is found: file modification times (upstream's rule), or in a git work tree the last commit touching sourceDirs and the file time of a file changed since (outside one: file times).",
				"enum":        pi.FreshnessModes,
				"default":     pi.DefaultFreshness,
			},
			"questionBudget": map[string]any{
				"description": "How many questions the rp1 interview asks at most.",
				"type":        "integer", "minimum": MinQuestionBudget, "maximum": MaxQuestionBudget,
				"default": DefaultQuestionBudget,
			},
			"debounceMs": map[string]any{
				"description": "Language server only: milliseconds to wait after an edit before publishing diagnostics (0 allowed).",
				"type":        "integer", "minimum": 0, "maximum": MaxDebounceMs,
				"default": DefaultDebounceMs,
			},
		},
	}
	out, _ := json.MarshalIndent(schema, "", "  ")
	return append(out, '\n')
}
