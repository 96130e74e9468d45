// Package agent runs the interview agent the user configured: rp1's
// stateless charter interviewer (an LLM behind a JSON contract), for which
// the built-in engine (package interview) is the deterministic stand-in.
//
// charter-lsp is then the seed's caller: it runs the agent with the seed's
// inputs (CHARTER_PATH and MODE as $1 and $2, RP1_ROOT in the environment),
// reads exactly one JSON object from its stdout, validates it against the
// contract's schema (schema.json, also docs/interview-agent.schema.json) and
// hands it to the engine's writers, so an agent's question, skip or
// finished charter is written exactly as the built-in engine's. An agent
// that fails, times out or answers outside the contract is reported and the
// built-in engine answers instead.
//
// Only the user names the agent (user settings, CHARTER_LSP_AGENT, --agent;
// never a project file or workspace settings), and the command runs without
// a shell, in its own process group (killed whole on cancel or timeout), in
// a private temporary folder holding a copy of the charter, with a clean
// environment (Env) and a bounded output.
package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
)

// Limits and defaults.
const (
	// DefaultTimeout bounds one call: an LLM that has not answered in two
	// minutes is not going to.
	DefaultTimeout = 2 * time.Minute
	// MaxTimeout is the most a setting may ask for.
	MaxTimeout = time.Hour
	// MaxOutput bounds what the agent may print on stdout; past it the
	// process group is killed. A charter's five sections fit many times.
	MaxOutput = 1 << 20
	// stderrTail is how much of stderr is kept for messages.
	stderrTail = 2 << 10
)

// The environment variables the user may set (never a project).
const (
	// EnvCommand names the agent's command line.
	EnvCommand = "CHARTER_LSP_AGENT"
	// EnvTimeout bounds one call: "90s", "2m", or seconds ("120").
	EnvTimeout = "CHARTER_LSP_AGENT_TIMEOUT"
	// EnvPass names further variables to pass to the agent (Env), e.g.
	// "ANTHROPIC_API_KEY OPENAI_API_KEY".
	EnvPass = "CHARTER_LSP_AGENT_ENV"
)

// Config is the interview agent the user chose.
type Config struct {
	// Command is the command line: split into words as a POSIX shell
	// splits them (quotes, backslashes; no variables, globs, pipes or
	// redirections: no shell runs it; a leading ~/ is the home folder),
	// then CHARTER_PATH and MODE are appended. For a pipeline, name a
	// script, or write `sh -c '…' agent`.
	Command string
	// Timeout bounds one call; 0 is DefaultTimeout.
	Timeout time.Duration
	// From says where Command was set, for messages ("CHARTER_LSP_AGENT",
	// "--agent", "the editor's user settings").
	From string
	// Pass names further environment variables the agent gets (EnvPass).
	Pass []string
}

// Enabled reports whether an agent is configured.
func (c Config) Enabled() bool { return strings.TrimSpace(c.Command) != "" }

// Argv is the command line split into words.
func (c Config) Argv() ([]string, error) {
	argv, err := shlex.Split(c.Command)
	if err != nil {
		return nil, fmt.Errorf("the interview agent's command line %q does not split into words: %v", c.Command, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("the interview agent's command line is empty")
	}
	if rest, ok := strings.CutPrefix(argv[0], "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			argv[0] = filepath.Join(home, rest)
		}
	}
	return argv, nil
}

// Name is the agent's program name, for messages.
func (c Config) Name() string {
	argv, err := c.Argv()
	if err != nil {
		return "the interview agent"
	}
	return filepath.Base(argv[0])
}

// timeout is Timeout with its default.
func (c Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// FromEnv reads the agent from the environment (EnvCommand, EnvTimeout,
// EnvPass) through getenv; os.Getenv when nil.
func FromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Config{Command: strings.TrimSpace(getenv(EnvCommand)), From: EnvCommand, Pass: strings.FieldsFunc(getenv(EnvPass), func(r rune) bool {
		return r == ' ' || r == ',' || r == '\t'
	})}
	if t := strings.TrimSpace(getenv(EnvTimeout)); t != "" {
		d, err := ParseTimeout(t)
		if err != nil {
			return c, fmt.Errorf("%s: %v", EnvTimeout, err)
		}
		c.Timeout = d
	}
	return c, nil
}

// ParseTimeout reads a timeout: a Go duration ("90s", "2m") or whole
// seconds ("120"), from one second to MaxTimeout.
func ParseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.Atoi(s)
		if nerr != nil {
			return 0, fmt.Errorf("%q is not a duration (90s, 2m) or a number of seconds", s)
		}
		d = time.Duration(n) * time.Second
	}
	return Seconds(d)
}

// Seconds checks a timeout's range: one second to MaxTimeout.
func Seconds(d time.Duration) (time.Duration, error) {
	if d < time.Second || d > MaxTimeout {
		return 0, fmt.Errorf("%s is outside 1s..%s", d, MaxTimeout)
	}
	return d, nil
}
