// Package shellword quotes words for the command lines charter-lsp prints
// for people and agents to paste into a POSIX shell.
package shellword

import "strings"

// Quote quotes s for a POSIX shell when it holds anything but plain path
// characters: the suggested command lines are run by agents and pasted
// into terminals, and a folder or milestone id comes from the repository
// ("m1;curl …|sh" stays one argument).
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
