package pi

import (
	"strings"
)

// WeakFinding explains why a verifier command is weak.
type WeakFinding struct {
	Segment   string // the offending shell segment, tokens joined by spaces
	Runner    string // vitest, jest, mocha, bun, npm, go, cargo, …
	TitleFlag string // the flag or argument that filters by name
	Reason    string // one sentence for the diagnostic
}

// WeakVerifier is upstream's weak-verifier-phrase-coupled rule for
// JavaScript test runners. A command is weak when any of its shell segments
// (split quote-aware on unquoted && || ; | & and newlines) runs a known test
// runner with a test-title filter and names no test file or glob:
//
//   - leading NAME=value assignments are skipped;
//   - runners: vitest, jest, mocha; bun|npm|pnpm|yarn test; bun|npm|pnpm|yarn
//     run test; deno test; playwright test; node … --test; npx
//     vitest|jest|mocha|playwright [test];
//   - title flags: -g --grep --test-name-pattern --testNamePattern, and -t for
//     every runner but mocha (where -t is --timeout); "--flag=value" counts;
//   - a title flag or a path option (--config -c --preload --require -r
//     --reporter --setupFiles --setup) consumes the next token unless it
//     starts with "-";
//   - any other positional token is file coverage when it matches
//     (\.[cm]?[jt]sx?$|\.test\b|\.spec\b|/|[*?{]).
func WeakVerifier(command string) (WeakFinding, bool) {
	cmd := strings.TrimFunc(command, isJSSpace)
	if cmd == "" {
		return WeakFinding{}, false
	}
	for _, seg := range splitShellSegments(cmd) {
		if f, ok := jsPhraseCoupled(seg); ok {
			return f, true
		}
	}
	return WeakFinding{}, false
}

var (
	jsTitleFlags = map[string]bool{"-g": true, "--grep": true, "--test-name-pattern": true, "--testNamePattern": true}
	jsPathFlags  = map[string]bool{"--config": true, "-c": true, "--preload": true, "--require": true, "-r": true,
		"--reporter": true, "--setupFiles": true, "--setup": true}
)

func jsPhraseCoupled(tokens []string) (WeakFinding, bool) {
	runner, argStart, ok := jsRunner(tokens)
	if !ok {
		return WeakFinding{}, false
	}
	title, file := "", false
	args := tokens[argStart:]
	for i := 0; i < len(args); i++ {
		tok := args[i]
		flag, hasEq := splitFlag(tok)
		switch {
		case flag != "" && (jsTitleFlags[flag] || flag == "-t" && runner != "mocha"):
			if title == "" {
				title = flag
			}
			if !hasEq && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case flag != "" && jsPathFlags[flag]:
			if !hasEq && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case flag != "":
			// a boolean or unknown flag
		case isFileOrGlob(tok):
			file = true
		}
	}
	if title == "" || file {
		return WeakFinding{}, false
	}
	return WeakFinding{
		Segment: strings.Join(tokens, " "), Runner: runner, TitleFlag: title,
		Reason: "the command filters tests by title (" + title + ") without a test file or glob, so it couples the VAL to a test name and passes silently when no test matches",
	}, true
}

// splitFlag returns the flag part of tok ("--grep" of "--grep=x") and
// whether a value was attached with "="; "" when tok is not a flag.
func splitFlag(tok string) (string, bool) {
	if !strings.HasPrefix(tok, "-") {
		return "", false
	}
	if i := strings.IndexByte(tok, '='); i >= 0 {
		return tok[:i], true
	}
	return tok, false
}

// jsRunner finds the runner after NAME=value prefixes and the index where its
// arguments start.
func jsRunner(tokens []string) (name string, argStart int, ok bool) {
	i := skipAssignments(tokens)
	at := func(k int) string {
		if i+k < len(tokens) {
			return tokens[i+k]
		}
		return ""
	}
	t0, t1, t2 := at(0), at(1), at(2)
	switch t0 {
	case "":
		return "", 0, false
	case "vitest", "jest", "mocha":
		return t0, i + 1, true
	case "bun", "npm", "pnpm", "yarn":
		if t1 == "test" {
			return t0, i + 2, true
		}
		if t1 == "run" && t2 == "test" {
			return t0, i + 3, true
		}
	case "deno", "playwright":
		if t1 == "test" {
			return t0, i + 2, true
		}
	case "node":
		for _, t := range tokens[i:] {
			if t == "--test" {
				return "node", i + 1, true
			}
		}
	case "npx":
		switch t1 {
		case "vitest", "jest", "mocha":
			return t1, i + 2, true
		case "playwright":
			if t2 == "test" {
				return t1, i + 3, true
			}
			return t1, i + 2, true
		}
	}
	return "", 0, false
}

// skipAssignments returns the index of the first token that is not a
// NAME=value assignment (/^[A-Za-z_][A-Za-z0-9_]*=/).
func skipAssignments(tokens []string) int {
	i := 0
	for i < len(tokens) && isAssignment(tokens[i]) {
		i++
	}
	return i
}

func isAssignment(tok string) bool {
	eq := strings.IndexByte(tok, '=')
	if eq <= 0 {
		return false
	}
	for j := 0; j < eq; j++ {
		c := tok[j]
		if !(isLetter(c) || c == '_' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// isFileOrGlob is upstream's /(\.[cm]?[jt]sx?$|\.test\b|\.spec\b|\/|[*?{])/.
func isFileOrGlob(tok string) bool {
	if strings.ContainsAny(tok, "/*?{") {
		return true
	}
	for _, w := range []string{".test", ".spec"} {
		for off := 0; ; {
			i := strings.Index(tok[off:], w)
			if i < 0 {
				break
			}
			end := off + i + len(w)
			if end == len(tok) || !isWordByte(tok[end]) {
				return true
			}
			off = off + i + 1
		}
	}
	// \.[cm]?[jt]sx?$
	for _, ext := range []string{".js", ".ts", ".jsx", ".tsx", ".cjs", ".cts", ".mjs", ".mts", ".cjsx", ".ctsx", ".mjsx", ".mtsx"} {
		if strings.HasSuffix(tok, ext) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// splitShellSegments is upstream's quote-aware split: quotes (no escapes)
// glue their content into the current token; unquoted spaces and tabs end a
// token; unquoted newlines, && || ; | and & end a segment. A token without
// a quote is a part of raw; only one with a quote is built.
func splitShellSegments(raw string) [][]string {
	var segments [][]string
	var current []string
	var token strings.Builder // the token, once it has a quote
	start, hasToken, quoted := 0, false, false
	i := 0
	endToken := func() {
		switch {
		case !hasToken:
			return
		case quoted:
			current = append(current, token.String())
			token.Reset()
		default:
			current = append(current, raw[start:i])
		}
		hasToken, quoted = false, false
	}
	endSegment := func() {
		endToken()
		if len(current) > 0 {
			segments = append(segments, current)
			current = nil
		}
	}
	for i < len(raw) {
		c := raw[i]
		switch {
		case c == '\'' || c == '"':
			if !quoted && hasToken {
				token.WriteString(raw[start:i]) // the token so far, unquoted
			}
			end := strings.IndexByte(raw[i+1:], c)
			if end < 0 {
				end = len(raw) - i - 1
			}
			token.WriteString(raw[i+1 : i+1+end])
			hasToken, quoted = true, true
			i += end + 2
		case c == '\n' || c == '\r':
			endSegment()
			i++
		case c == ' ' || c == '\t':
			endToken()
			i++
		case (c == '&' || c == '|') && i+1 < len(raw) && raw[i+1] == c:
			endSegment()
			i += 2
		case c == ';' || c == '|' || c == '&':
			endSegment()
			i++
		default:
			if quoted {
				token.WriteByte(c)
			} else if !hasToken {
				start = i
			}
			hasToken = true
			i++
		}
	}
	i = min(i, len(raw)) // past the end after a quote left open
	endSegment()
	return segments
}
