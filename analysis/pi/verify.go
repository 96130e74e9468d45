package pi

import (
	"fmt"
	"strings"
)

// Verification is what verifying a VAL runs (charter-lsp verify, the
// editor's "Run `…`" lens): the command as written in the charter, and
// whether it can pass without running a test. Nothing here runs it.
type Verification struct {
	// Command is the text the shell is given, verbatim: the VAL's Command:
	// value, or the ## Commands entry that value names.
	Command string
	// Key is the ## Commands key the Command: line names ("" when the line
	// is the command itself).
	Key string
	// Weak says why the command can pass on zero tests; nil when no rule
	// finds it weak.
	Weak *WeakFinding
}

// Verification is the command that verifies c, with ch's ## Commands (ch
// may be nil): a VAL whose verifier is command and whose Command: line is
// not blank. A Command: value that is exactly a ## Commands key (keys are
// lower-case; the value is compared lower-cased, one word) runs that
// entry's command, as an agent following the charter would. Any other
// verifier has nothing to run: the error says why, in a sentence for the
// user.
func (c *Criterion) Verification(ch *Charter) (Verification, error) {
	switch {
	case c.Verifier.Kind != VerifierCommand && c.Verifier.Degraded:
		return Verification{}, fmt.Errorf("%s has no command verifier (%s, so upstream reads it as manual): nothing to run", c.ID, c.Verifier.DegradeReason)
	case c.Verifier.Kind != VerifierCommand:
		return Verification{}, fmt.Errorf("%s is verified by %s, not by a command: nothing to run", c.ID, c.Verifier.Kind)
	case c.Command == "":
		return Verification{}, fmt.Errorf("%s has Verifier: command but no Command: line: add the command to run", c.ID)
	}
	v := Verification{Command: c.Command}
	if key := strings.ToLower(c.Command); ch != nil && !strings.ContainsFunc(key, isJSSpace) {
		if cmd, ok := ch.Command(key); ok {
			v.Command, v.Key = cmd, key
		}
	}
	if w, weak := Weakness(v.Command); weak {
		v.Weak = &w
	}
	return v, nil
}

// Weakness reports whether command can pass without running a test:
// upstream's rule for JavaScript runners (WeakVerifier), then ours for
// the other ecosystems (WeakTitleFilter). The diagnostics weak-verifier-
// phrase-coupled and weak-verifier-title-filter say the same of a
// Command: line.
func Weakness(command string) (WeakFinding, bool) {
	if w, weak := WeakVerifier(command); weak {
		return w, true
	}
	return WeakTitleFilter(command)
}
