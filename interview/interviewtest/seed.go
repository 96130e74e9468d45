package interviewtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// The seed's worked examples (rp1's charter-interviewer, "Interview Flow"
// and the skip response) are kept verbatim in a script's seed section;
// CheckSeed reads what they promise from their own words and checks a run
// against it, so an expectation is never restated by hand.

// Observed is one response of a run, with the question the user had last
// answered before it (0: none yet).
type Observed struct {
	Response
	After int
}

var (
	// "Q2: Value prop question -> User answers -> gaps_remaining = [scope, success]"
	afterRe = regexp.MustCompile(`^Q(\d+): ([^-]+?)(?: question)? -> .*gaps_remaining = \[([^\]]*)\]`)
	// "gaps_remaining = [value_prop, success] # Skip problem, users, scope"
	firstRe = regexp.MustCompile(`^gaps_remaining = \[([^\]]*)\]`)
	// "Q1: Value prop question (targeted, not brain dump)", "Resume at Q3: Value prop question"
	asksRe = regexp.MustCompile(`^(?:Resume at )?Q(\d+): ([A-Za-z ]+?) question\b`)
	// "Return: success (all gaps filled after 4 questions)"
	returnRe = regexp.MustCompile(`^Return: (\w+)(?: \(.*?(?:after (\d+) questions)?\))?`)
	// "Prior coverage: problem (COVERED_BY_QA), users (COVERED_BY_QA)",
	// "Charter has: problem (COMPLETE), …"
	statusesRe = regexp.MustCompile(`^(Prior coverage|Charter has): (.*)$`)
	statusRe   = regexp.MustCompile(`(\w+) \(([A-Z_]+)\)`)
)

// seedTopics maps how the seed names a question to the entry's topic.
var seedTopics = map[string]string{
	"brain dump": "Brain Dump", "problem": "Problem & Context", "users": "Target Users",
	"value prop": "Value Proposition", "scope": "Scope", "success": "Success Criteria",
}

// CheckSeed checks a run (every response, skips included, in order)
// against the seed's example, returning what disagrees; it also returns
// how many of the seed's promises it checked, so a test can tell a seed
// section it could not read.
func CheckSeed(seed string, run []Observed) (problems []string, checked int) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	asking := func(n int) *Observed {
		for i := range run {
			if (run[i].Type == "next_question" || run[i].Type == "skip") && run[i].Number == n {
				return &run[i]
			}
		}
		return nil
	}
	trimmed := strings.TrimSpace(seed)
	if strings.HasPrefix(trimmed, "{") {
		// A response of the seed's, verbatim: one response of the run must
		// be exactly that JSON.
		var want any
		if err := json.Unmarshal([]byte(trimmed), &want); err != nil {
			bad("the seed's JSON does not parse: %v", err)
			return problems, 0
		}
		for _, o := range run {
			var got any
			if json.Unmarshal(o.JSON, &got) == nil && reflect.DeepEqual(got, want) {
				return nil, 1
			}
		}
		var all [][]byte
		for _, o := range run {
			all = append(all, o.JSON)
		}
		bad("no response of the run is the seed's %s; the run answered:\n%s", trimmed, bytes.Join(all, []byte("\n")))
		return problems, 1
	}
	for _, line := range strings.Split(seed, "\n") {
		line = strings.TrimSpace(line)
		if m := afterRe.FindStringSubmatch(line); m != nil {
			checked++
			n, _ := strconv.Atoi(m[1])
			if o := asking(n); o == nil || o.Topic != seedTopics[strings.ToLower(m[2])] {
				bad("%q: Q%d does not ask about %s (%v)", line, n, m[2], o)
			}
			want := seedList(m[3])
			found := false
			for _, o := range run {
				if o.After == n {
					found = true
					if !equal(o.Gaps, want) {
						bad("%q: after Q%d was answered the interviewer said %s Q%d with gaps_remaining %v", line, n, o.Type, o.Number, o.Gaps)
					}
					break
				}
			}
			if !found {
				bad("%q: nothing followed the answer to Q%d", line, n)
			}
			continue
		}
		if m := firstRe.FindStringSubmatch(line); m != nil {
			checked++
			if len(run) == 0 || !equal(run[0].Gaps, seedList(m[1])) {
				bad("%q: the first response has gaps_remaining %v", line, first(run))
			}
			continue
		}
		if m := asksRe.FindStringSubmatch(line); m != nil {
			checked++
			n, _ := strconv.Atoi(m[1])
			o := asking(n)
			if o == nil || o.Type != "next_question" || o.Topic != seedTopics[strings.ToLower(m[2])] {
				bad("%q: Q%d is %v", line, n, o)
			}
			if strings.HasPrefix(line, "Resume at") && (len(run) == 0 || run[0].Number != n) {
				bad("%q: the run did not resume there but at %v", line, first(run))
			}
			continue
		}
		if m := returnRe.FindStringSubmatch(line); m != nil {
			checked++
			last := run[len(run)-1]
			if last.Type != m[1] {
				bad("%q: the run ended with %s", line, last.Type)
			}
			if m[2] != "" {
				if n, _ := strconv.Atoi(m[2]); last.Number != n+1 {
					bad("%q: the run ended after %d questions", line, last.Number-1)
				}
			}
			if strings.Contains(line, "all gaps filled") && len(last.Gaps) != 0 {
				bad("%q: the run ended with gaps_remaining %v", line, last.Gaps)
			}
		}
	}
	return problems, checked
}

// CheckSeedCharter checks the seed's statements about the charter a run
// starts from ("Charter has: problem (COMPLETE), …" for Step 1, "Prior
// coverage: problem (COVERED_BY_QA), …" for Step 3) against rp1's reading
// of it. Only the engine's tests can: the CLI prints no statuses.
func CheckSeedCharter(seed string, start []byte) (problems []string, checked int) {
	gaps := map[string]rp1.Gap{}
	for _, g := range rp1.Parse(start).Gaps() {
		gaps[string(g.Section)] = g
	}
	for _, line := range strings.Split(seed, "\n") {
		m := statusesRe.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		for _, s := range statusRe.FindAllStringSubmatch(m[2], -1) {
			checked++
			g, ok := gaps[s[1]]
			got := string(g.Status)
			if m[1] == "Charter has" {
				got = string(g.Charter)
			}
			if !ok || got != s[2] {
				problems = append(problems, fmt.Sprintf("%q: %s is %s", line, s[1], got))
			}
		}
	}
	return problems, checked
}

func seedList(s string) []string {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func equal(a, b []string) bool {
	return len(a) == len(b) && strings.Join(a, ",") == strings.Join(b, ",")
}

func first(run []Observed) any {
	if len(run) == 0 {
		return "nothing"
	}
	return run[0].Response
}
