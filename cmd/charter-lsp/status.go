package main

import (
	"fmt"
	"io"
)

func runStatus(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "charter-lsp status: not implemented yet")
	return 2
}
