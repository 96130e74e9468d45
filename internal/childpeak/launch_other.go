//go:build !linux

package childpeak

import "os"

// launch is Linux's: Wrap starts no launcher elsewhere.
func launch(out string, args []string) int {
	os.Stderr.WriteString("childpeak: measures on Linux only\n")
	return 2
}
