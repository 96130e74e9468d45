package charterfile

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

// statusSynonyms map words people write for a status to the token it
// most likely means. A word maps only where the meaning is clear:
// "blocked" has no ADR-0014 equivalent, so it has no fix there.
var statusSynonyms = map[string]Status{
	"done": StatusPass, "passed": StatusPass, "passing": StatusPass, "ok": StatusPass, "complete": StatusPass, "completed": StatusPass,
	"green": StatusPass, "success": StatusPass, "succeeded": StatusPass, "verified": StatusPass,
	"failed": StatusFail, "failing": StatusFail, "failure": StatusFail, "red": StatusFail, "broken": StatusFail,
	"wip": StatusInProgress, "doing": StatusInProgress, "started": StatusInProgress, "active": StatusInProgress,
	"ongoing": StatusInProgress, "inprogress": StatusInProgress, "in_progress": StatusInProgress, "working": StatusInProgress,
	"todo": StatusPending, "to-do": StatusPending, "open": StatusPending, "new": StatusPending, "tbd": StatusPending,
	"planned": StatusPending, "not-started": StatusPending,
	"stuck": StatusBlocked, "waiting": StatusBlocked, "on-hold": StatusBlocked,
}

// statusSynonyms14 are the ADR-0014 ones (pass, fail, none).
var statusSynonyms14 = map[string]Status{
	"done": StatusPass, "passed": StatusPass, "passing": StatusPass, "ok": StatusPass, "complete": StatusPass, "completed": StatusPass,
	"green": StatusPass, "success": StatusPass, "succeeded": StatusPass, "verified": StatusPass,
	"failed": StatusFail, "failing": StatusFail, "failure": StatusFail, "red": StatusFail, "broken": StatusFail,
	string(StatusPending): StatusNone, "todo": StatusNone, "to-do": StatusNone, "tbd": StatusNone, "n/a": StatusNone, "na": StatusNone,
	"not-run": StatusNone, "open": StatusNone, "-": StatusNone,
}

// nearestStatus finds the token an unknown Status/Evidence value most
// likely means. value is the text after the label; it returns the text to
// put in place of the first n bytes of value, and whether that is a guess
// (a synonym or a typo, not the token as written: an unsafe fix).
func nearestStatus(value string, tokens []Status) (repl string, n int, guessed, ok bool) {
	has := func(t string) bool { return slices.Contains(tokens, Status(t)) }
	tok, _, matched := statusValue(value)
	if !matched {
		return "", 0, false, false
	}
	lower := strings.ToLower(tok)
	// "in progress": two words where the token is hyphenated.
	if has(string(StatusInProgress)) && lower == "in" {
		rest := value[len(tok):]
		sp := skipSpace(rest, 0)
		if sp > 0 && hasPrefixFold(rest[sp:], "progress") {
			end := len(tok) + sp + len("progress")
			if end == len(value) || isJSSpace(firstRune(value[end:])) {
				return string(StatusInProgress), end, false, true
			}
		}
	}
	// A known token glued to a dash and the note: "pass—ok".
	for _, s := range tokens {
		t := string(s)
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
	// An Evidence token on a Status line: what ADR-0015 reads it as.
	if cur := Status(bare).Current(); has(string(cur)) {
		return string(cur), len(tok), false, true
	}
	syn := statusSynonyms
	if !has(string(StatusPending)) {
		syn = statusSynonyms14
	}
	if t, found := syn[bare]; found && has(string(t)) {
		return string(t), len(tok), true, true
	}
	// A typo: the one token within two edits.
	if utf8.RuneCountInString(bare) >= 3 {
		best, bestD, ties := "", 3, 0
		for _, t := range tokens {
			switch d := textdist.Distance(bare, string(t)); {
			case d < bestD:
				best, bestD, ties = string(t), d, 1
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
