// Command gendocs writes the generated documentation: docs/diagnostics.md
// from the diagnostic catalogue, docs/charter-lsp.schema.json from the
// configuration, and docs/cli.md from the commands' flags (through the
// test that keeps it in step, since package main cannot be imported). Run
// from the repository root: go run ./internal/gendocs
package main

import (
	"fmt"
	"os"
	"os/exec"

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
	cli := exec.Command("go", "test", "-count=1", "-run", "^TestCLIReferenceInStep$", "./cmd/charter-lsp")
	cli.Env = append(os.Environ(), "CLI_REFERENCE_WRITE=1")
	if out, err := cli.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: docs/cli.md: %v\n%s", err, out)
		os.Exit(1)
	}
}
