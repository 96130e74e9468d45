package main

import (
	"fmt"
	"io"
)

func runInterview(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "charter-lsp interview: not implemented yet")
	return 2
}
