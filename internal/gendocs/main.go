// Command gendocs writes the generated documentation: docs/diagnostics.md
// from the diagnostic catalogue and docs/charter-lsp.schema.json from the
// configuration. Run from the repository root: go run ./internal/gendocs
package main

import (
	"fmt"
	"os"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

func main() {
	files := map[string][]byte{
		"docs/diagnostics.md":          []byte(diag.Markdown()),
		"docs/charter-lsp.schema.json": analysis.ConfigSchema(),
	}
	for name, content := range files {
		if err := os.WriteFile(name, content, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gendocs:", err)
			os.Exit(1)
		}
	}
}
