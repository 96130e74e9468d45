package charterfile

import (
	"strings"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

// statusSynonyms map words people write for a status to the token it
// most likely means. A word maps only where the meaning is clear:
// "blocked" has no ADR-0014 equivalent, so it has no fix there.
var statusSynonyms = map[string]string{
	"done": "pass", "passed": "pass", "passing": "pass", "ok": "pass", "complete": "pass", "completed": "pass",
	"green": "pass", "success": "pass", "succeeded": "pass", "verified": "pass",
	"failed": "fail", "failing": "fail", "failure": "fail", "red": "fail", "broken": "fail",
	"wip": "in-progress", "doing": "in-progress", "started": "in-progress", "active": "in-progress",
	"ongoing": "in-progress", "inprogress": "in-progress", "in_progress": "in-progress", "working": "in-progress",
	"todo": "pending", "to-do": "pending", "open": "pending", "new": "pending", "tbd": "pending",
	"planned": "pending", "not-started": "pending", "none": "pending",
	"stuck": "blocked", "waiting": "blocked", "on-hold": "blocked",
}

// statusSynonyms14 are the ADR-0014 ones (pass, fail, none).
var statusSynonyms14 = map[string]string{
	"done": "pass", "passed": "pass", "passing": "pass", "ok": "pass", "complete": "pass", "completed": "pass",
	"green": "pass", "success": "pass", "succeeded": "pass", "verified": "pass",
	"failed": "fail", "failing": "fail", "failure": "fail", "red": "fail", "broken": "fail",
	"pending": "none", "todo": "none", "to-do": "none", "tbd": "none", "n/a": "none", "na": "none",
	"not-run": "none", "open": "none", "-": "none",
}

// nearestStatus finds the token an unknown Status/Evidence value most
// likely means. value is the text after the label; it returns the text to
// put in place of the first n bytes of value, and whether that is a guess
// (a synonym or a typo, not the token as written: an unsafe fix).
func nearestStatus(value string, tokens []string) (repl string, n int, guessed, ok bool) {
	has := func(t string) bool { return oneOf(t, tokens) }
	tok, _, matched := statusValue(value)
	if !matched {
		return "", 0, false, false
	}
	lower := strings.ToLower(tok)
	// "in progress": two words where the token is hyphenated.
	if has("in-progress") && lower == "in" {
		rest := value[len(tok):]
		sp := skipSpace(rest, 0)
		if sp > 0 && hasPrefixFold(rest[sp:], "progress") {
			end := len(tok) + sp + len("progress")
			if end == len(value) || isJSSpace(firstRune(value[end:])) {
				return "in-progress", end, false, true
			}
		}
	}
	// A known token glued to a dash and the note: "pass—ok".
	for _, t := range tokens {
		if len(lower) > len(t) && strings.HasPrefix(lower, t) {
			r, size := utf8.DecodeRuneInString(tok[len(t):])
			if r == '—' || r == '–' || r == '-' {
				return t + " — " + jsTrimStart(tok[len(t)+size:]), len(tok), false, true
			}
		}
	}
	// Punctuation, markup or case: "PASS:", "**pass**", "`fail`".
	bare := strings.ToLower(strings.Trim(tok, ".,;:!?*_`'\"()[]{}"))
	if has(bare) {
		return bare, len(tok), false, true
	}
	syn := statusSynonyms
	if !has("pending") {
		syn = statusSynonyms14
	}
	if t, found := syn[bare]; found && has(t) {
		return t, len(tok), true, true
	}
	// A typo: the one token within two edits.
	if utf8.RuneCountInString(bare) >= 3 {
		best, bestD, ties := "", 3, 0
		for _, t := range tokens {
			switch d := textdist.Distance(bare, t); {
			case d < bestD:
				best, bestD, ties = t, d, 1
			case d == bestD:
				ties++
			}
		}
		if best != "" && ties == 1 {
			return best, len(tok), true, true
		}
	}
	return "", 0, false, false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
