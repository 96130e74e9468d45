package status_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A seeded generator of charter.md / criteria.md pairs in the shapes that
// make upstream's reading subtle: H1 resets, ungrouped ## VAL-*, blank and
// "Criteria" H2s, bullet and bold fields, lower-case and greedy ids,
// duplicate ids, CRLF, lone CR, U+2028, BOM and NBSP, FreshSince values
// Node accepts and refuses, ## Commands edge lines, and scaffold look-alikes.

// genCommands are Command: values with their phrase-coupled verdict, from
// isPhraseCoupledTestCommand (charter-md.ts@16cab0f:309-410): a segment
// (split on unquoted && || ; | & and newlines) that runs a JavaScript test
// runner with a title filter (-t except for mocha, -g, --grep,
// --test-name-pattern, --testNamePattern) and no file or glob argument.
var genCommands = map[string]bool{
	"go test ./auth":                               false,
	"bun test tests/example.test.ts":               false,
	"bun test":                                     false,
	"bun test -t 'rejects expired token'":          true,
	"bun test tests/auth.test.ts -t expired":       false,
	"vitest --grep=login":                          true,
	"npx vitest run -t login":                      true, // "run" is no file
	"npx jest src/a.spec.ts -t x":                  false,
	"mocha -t 5000":                                false, // -t is mocha's timeout
	"mocha -g session":                             true,
	"FOO=1 pnpm test -t x":                         true,
	"npm run test -- --testNamePattern foo":        true,
	"yarn test 'a;b' -t c":                         true,
	"vitest -t x && vitest tests/x.test.ts":        true,
	"deno test --filter x":                         false,
	"node --test --test-name-pattern=x":            true,
	"node --test test/x.mjs --test-name-pattern=x": false,
	"npx playwright test -g checkout":              true,
	"jest --config jest.config.js -t a":            true, // the config path is no file coverage
	"go test ./... -run TestX":                     false,
	"make test":                                    false,
	"bun test -t x":                                true,
	"bun test \"-t\" x":                            true,
	"bun test -t 'x' 'tests/*.ts'":                 false,
}

// genDates loads Node's Date.parse verdicts from the golden file of
// analysis/pi, keeping the values a FreshSince: line can carry whole.
func genDates(t testing.TB) (map[string]bool, []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "analysis", "pi", "testdata", "jsdate", "golden.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	verdict := map[string]bool{}
	var usable []string
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var row [2]json.RawMessage
		var in string
		if json.Unmarshal(line, &row) != nil || json.Unmarshal(row[0], &in) != nil {
			t.Fatalf("bad golden line %s", line)
		}
		if in == "" || jsTrim(in) != in || strings.ContainsAny(in, "\x00\n\r\u2028\u2029") {
			continue
		}
		verdict[in] = string(row[1]) != "null"
		usable = append(usable, in)
	}
	return verdict, usable
}

type genCase struct {
	charter  string
	criteria *string // nil: no criteria.md
}

type generator struct {
	r     *rand.Rand
	dates []string
	ids   []string
}

func newGenerator(seed uint64, dates []string) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), dates: dates,
		ids: []string{"VAL-A1", "VAL-A2", "VAL-B-001", "VAL-B-002", "VAL-X", "VAL-EXAMPLE", "VAL-LOGIN-1"}}
}

func (g *generator) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *generator) chance(p float64) bool    { return g.r.Float64() < p }

// join ends each line with \n, \r\n, a lone \r or U+2028; the last one
// sometimes has no end.
func (g *generator) join(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i == len(lines)-1 && g.chance(0.3) {
			break
		}
		switch x := g.r.Float64(); {
		case x < 0.80:
			b.WriteString("\n")
		case x < 0.94:
			b.WriteString("\r\n")
		case x < 0.98:
			b.WriteString("\r")
		default:
			b.WriteString("\u2028")
		}
	}
	return b.String()
}

func (g *generator) valHeading(level string) string {
	id := g.pick(g.ids...)
	title := g.pick("Login issues a token", "Expired tokens are refused", "", "x")
	switch g.r.IntN(16) {
	case 0:
		return level + " " + id + " — " + title
	case 1:
		return level + " " + id + " - " + title
	case 2:
		return level + " " + id + "-Title" // greedy id
	case 3:
		return level + " " + strings.ToLower(id) + " " + title // lower case: not a VAL
	case 4:
		return level + id + " " + title // no space: not a heading
	case 5:
		return "#" + level + " " + id + " " + title // one level deeper: body text
	case 6:
		return level + " " + id + "b " + title // VAL-A1b
	case 7:
		return level + "\t" + id + "\t" + title + "  "
	case 8:
		return level + " VAL- " + title
	case 9:
		return level + " Notes"
	case 10:
		return level + "  "
	case 11:
		return level + "\u00a0" + id + " " + title
	default:
		return level + " " + id + " " + title
	}
}

func (g *generator) fieldLine() string {
	key := func(k string) string {
		switch g.r.IntN(12) {
		case 0:
			return "- " + k + ":"
		case 1:
			return "**" + k + ":**"
		case 2:
			return "  " + k + ":"
		case 3:
			return k + " :"
		case 4:
			return "\u00a0" + k + ":"
		case 5:
			return strings.ToUpper(k) + ":"
		default:
			return k + ":"
		}
	}
	sp := func() string { return g.pick(" ", " ", "", "\t", "\u00a0", "   ") }
	switch g.r.IntN(22) {
	case 0, 1, 2:
		return key("Verifier") + sp() + g.pick("command", "Command", "MANUAL", "manual", "hook", "prompt", "subagent",
			"evidence-exists", "review", "qa", "readiness", "bogus", "", "  manual  ", "READİNESS", "ho\rok")
	case 3, 4:
		return key("Command") + sp() + g.pick(genCommandList...)
	case 5:
		return key("Because") + sp() + g.pick("a person checks the dashboard", "", "  ")
	case 6:
		return key(g.pick("RequireFreshEvidence", "Fresh evidence required", "require fresh evidence")) + sp() + g.pick("true", "yes", "no", "maybe", "", "TRUE", "false")
	case 7:
		return key(g.pick("RequireReviewSubagent", "Review subagent required")) + sp() + g.pick("true", "no", "")
	case 8:
		return key("Agent") + sp() + g.pick("qa", "", "reviewer")
	case 9:
		return key("Task") + sp() + g.pick("check the flow", "")
	case 10:
		return key("Kind") + sp() + g.pick("review", "qa", "QA", "readiness", "command", "bogus", "")
	case 11, 12, 13:
		return key("FreshSince") + sp() + g.pick(g.dates...)
	case 14:
		return key("Description") + sp() + "Tokens expire after an hour."
	case 15:
		return "The login flow refuses an expired token."
	case 16:
		return "<!-- note -->"
	case 17:
		return ""
	case 18:
		return "X-Verifier: hook"
	case 19:
		return "**Verifier**: hook"
	default:
		return "Verifier:hook"
	}
}

func (g *generator) val(level string) []string {
	lines := []string{g.valHeading(level)}
	for range g.r.IntN(7) {
		lines = append(lines, g.fieldLine())
	}
	return lines
}

func (g *generator) criteria() string {
	if g.chance(0.2) {
		return g.scaffoldish()
	}
	var lines []string
	if g.chance(0.7) {
		lines = append(lines, "# Criteria for the token rework", "")
	}
	if g.chance(0.3) {
		lines = append(lines, g.val("###")...) // under the H1: dropped unless flat
	}
	for range g.r.IntN(5) {
		switch x := g.r.Float64(); {
		case x < 0.55:
			lines = append(lines, "## "+g.pick("m1-sessions Sessions", "m2", "m3 Rollout and cleanup", "M1\tTabs", "m1-sessions Again"))
			for range g.r.IntN(4) {
				lines = append(lines, g.val("###")...)
			}
		case x < 0.70:
			lines = append(lines, g.val("##")...)
			if g.chance(0.3) {
				lines = append(lines, g.val("###")...) // swallowed by the ungrouped VAL
			}
		case x < 0.80:
			lines = append(lines, g.pick("# Part two", "#\tPart", "#"), "")
			if g.chance(0.5) {
				lines = append(lines, g.val("###")...)
			}
		case x < 0.85:
			lines = append(lines, g.pick("## Criteria", "##  criteria  "))
			lines = append(lines, g.val("###")...)
		case x < 0.92:
			lines = append(lines, "##  ")
			lines = append(lines, g.val("###")...)
		default:
			lines = append(lines, "## Notes", "Some prose.")
		}
	}
	s := g.join(lines)
	if g.chance(0.05) {
		s = "\ufeff" + s
	}
	return s
}

// scaffoldish is a criteria.md in the scaffold's shape (our own words) or a
// near miss of it.
func (g *generator) scaffoldish() string {
	example := g.pick("### VAL-EXAMPLE Example criterion (delete me)", "### VAL-EXAMPLE", "### VAL-EXAMPLE-2 x",
		"### VAL-EXAMPLE2 x", "## VAL-EXAMPLE Example", "#### VAL-EXAMPLE x", "### val-example x", "   ### VAL-EXAMPLE x",
		"###\u00a0VAL-EXAMPLE x", "##\nVAL-EXAMPLE x", "### VAL-EXAMPLE_1 x", "###VAL-EXAMPLE x")
	lines := []string{"# Criteria for the token rework", "", "<!-- replace the example -->", "",
		"## m0-example Example milestone (delete me)", "", example, "A sentence to replace.", "",
		"Verifier: " + g.pick("command", "manual", "bogus"), "Command: bun test tests/example.test.ts"}
	switch g.r.IntN(6) {
	case 0:
		lines = append(lines, "### VAL-A1b look-alike") // no \b after VAL-A1: not counted
	case 1:
		lines = append(lines, "### VAL-A1 A real one", "Verifier: hook") // two VAL headings
	case 2:
		lines = append(lines, "### VAL-a1 lower case") // not counted
	case 3:
		lines = append(lines, "##\t\tVAL-Z- trailing dash")
	}
	s := g.join(lines)
	if g.chance(0.1) {
		s = "\ufeff" + s
	}
	return s
}

func (g *generator) charter() string {
	lines := []string{"# Charter: token rework", "", "## Objective", "", "Replace session cookies with tokens.", ""}
	if g.chance(0.4) {
		lines = append(lines, "## Scope and constraints", "- keep the API", "")
	}
	commands := func() {
		lines = append(lines, g.pick("## Commands", "## commands", "##   Commands  "))
		for range g.r.IntN(6) {
			lines = append(lines, g.pick("test: bun test", "TEST: go test ./...", "lint go vet", ": x", "build:", "build:   ",
				"<!-- note -->", "te\rst: a", "test: a\rb", "url: http://x:8080", "k:\r v", " spaced key : v ", "Dup: one",
				"dup: two", "\u00a0nb: x", "", "typecheck: tsc --noEmit", "İD: x", "x:\u2028y"))
		}
		lines = append(lines, "")
	}
	if g.chance(0.7) {
		commands()
	}
	if g.chance(0.45) {
		lines = append(lines, g.pick("## Criteria", "## criteria", "##  Criteria "))
		for range g.r.IntN(4) {
			lines = append(lines, g.val("###")...)
		}
		if g.chance(0.2) {
			lines = append(lines, "# Heading one does not end it", "### VAL-H1-1 After the H1", "Verifier: hook")
		}
	}
	if g.chance(0.1) {
		commands() // a second section: the last one wins
	}
	return g.join(lines)
}

func (g *generator) next() genCase {
	c := genCase{charter: g.charter()}
	if !g.chance(0.1) {
		s := g.criteria()
		c.criteria = &s
	}
	return c
}

// genCommandList is genCommands' keys in a fixed order.
var genCommandList = slices.Sorted(maps.Keys(genCommands))

func (c genCase) String() string {
	crit := "(none)"
	if c.criteria != nil {
		crit = fmt.Sprintf("%q", *c.criteria)
	}
	return fmt.Sprintf("charter.md %q\ncriteria.md %s", c.charter, crit)
}
