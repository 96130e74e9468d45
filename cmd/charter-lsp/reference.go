package main

import (
	"bytes"
	"fmt"
	"strings"
)

// cliReference is docs/cli.md: every command's help, as -h prints it, so
// the reference lists exactly the flags the binary has. A test keeps the
// file in step; `go run ./internal/gendocs` rewrites it.
func cliReference() string {
	var b strings.Builder
	b.WriteString("# charter-lsp command line\n\n")
	b.WriteString("<!-- Generated from the flag definitions by `go run ./internal/gendocs`; do not edit. -->\n\n")
	b.WriteString("Each section is what `charter-lsp COMMAND -h` prints. Flags may come before or after the\n")
	b.WriteString("arguments, as `--flag value`, `--flag=value` or `-flag value`; `--` ends the flags.\n\n")
	var top bytes.Buffer
	usage(&top)
	fmt.Fprintf(&b, "```text\n%s```\n", top.String())
	for _, c := range commands {
		var out bytes.Buffer
		run([]string{c.name, "-h"}, nil, &out, &out)
		fmt.Fprintf(&b, "\n## %s\n\n```text\n%s```\n", c.name, out.String())
	}
	b.WriteString("\n" + conventions)
	return b.String()
}
