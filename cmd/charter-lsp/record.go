package main

import (
	"fmt"
	"io"
)

func runRecord(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "charter-lsp record: not implemented yet")
	return 2
}
