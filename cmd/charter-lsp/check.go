package main

import (
	"fmt"
	"io"
)

func runCheck(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "charter-lsp check: not implemented yet")
	return 2
}
