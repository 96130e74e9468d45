// Package glob translates the glob patterns of editor document selectors
// into regular expressions. The syntax is VS Code's (and LSP's): "**" for
// any number of folders, "*" and "?" within one name, "{a,b}" for
// alternatives. Two dialects come out of one translation: RE2, with which
// the Go tests check the patterns against analysis.Classify, and Vim's
// very-magic syntax, with which the Neovim plugin matches buffer names
// (vim.regex; Neovim before 0.10 has no glob matcher of its own).
package glob

import (
	"fmt"
	"regexp"
	"strings"
)

// Dialect is the regular-expression syntax to write.
type Dialect int

const (
	RE2 Dialect = iota // Go's regexp
	Vim                // Vim's \v (very magic), for vim.regex
)

// Regexp translates pattern into an anchored regular expression matching
// the same paths ('/' separators). Only names made of letters, digits and
// "_.-" are accepted besides the glob operators, so nothing in a pattern
// can mean something else in either dialect.
func Regexp(pattern string, d Dialect) (string, error) {
	var b strings.Builder
	group := "(?:"
	if d == Vim {
		b.WriteString(`\v`)
		group = "%("
	}
	b.WriteByte('^')
	depth := 0
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		atSegmentStart := i == 0 || pattern[i-1] == '/' || pattern[i-1] == '{' || pattern[i-1] == ','
		switch {
		case strings.HasPrefix(pattern[i:], "**/") && atSegmentStart:
			b.WriteString(group + ".*/)?") // zero or more folders
			i += 2
		case strings.HasPrefix(pattern[i:], "**") && atSegmentStart && i+2 == len(pattern):
			b.WriteString(".*")
			i++
		case strings.HasPrefix(pattern[i:], "**"):
			return "", fmt.Errorf("glob %q: ** must stand for whole folders (**/ or a trailing /**)", pattern)
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '{':
			depth++
			b.WriteString(group)
		case c == ',' && depth > 0:
			b.WriteByte('|')
		case c == '}' && depth > 0:
			depth--
			b.WriteByte(')')
		case isNameByte(c):
			if d == RE2 {
				b.WriteString(regexp.QuoteMeta(string(c)))
			} else if c == '.' || c == '-' {
				b.WriteByte('\\') // in \v every punctuation mark but _ is an operator or reserved
				b.WriteByte(c)
			} else {
				b.WriteByte(c)
			}
		case c == '/':
			b.WriteByte('/') // not an operator in either dialect (vim.regex has no delimiter)
		default:
			return "", fmt.Errorf("glob %q: %q is not supported", pattern, c)
		}
	}
	if depth != 0 {
		return "", fmt.Errorf("glob %q: unclosed {", pattern)
	}
	b.WriteByte('$')
	return b.String(), nil
}

// Compile is Regexp for Go: the pattern as a *regexp.Regexp.
func Compile(pattern string) (*regexp.Regexp, error) {
	re, err := Regexp(pattern, RE2)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(re)
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}
