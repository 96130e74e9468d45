// Command gendocs writes docs/diagnostics.md from the diagnostic catalogue.
// Run from the repository root: go run ./internal/gendocs
package main

import (
	"fmt"
	"os"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

func main() {
	if err := os.WriteFile("docs/diagnostics.md", []byte(diag.Markdown()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}
