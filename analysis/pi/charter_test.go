package pi

import (
	"strings"
	"testing"
)

func TestParseCharter(t *testing.T) {
	src := []byte("# Charter: Demo\r\n\r\n## Objective\r\n\r\n<!-- hint -->\r\nShip it\r\n  fast.\r\n\r\n## Scope and constraints\r\n- one\r\n-two\r\n  - three\r\n-  \r\n\r\n## Commands\r\n\r\nbuild: go build ./...\r\nTest : go test\r\nlint go vet\r\n: nokey\r\nempty:\r\ntest: go test -race\r\n<!-- note: ignored -->\r\n\r\n## QA\r\nmanual pass\r\n## Criteria\r\n### VAL-L-001 Legacy\r\nVerifier: manual\r\nBecause: x\r\n")
	ch := ParseCharter(src)
	if ch.Title != "Demo" {
		t.Errorf("title %q", ch.Title)
	}
	if ch.Objective != "Ship it\nfast." {
		t.Errorf("objective %q", ch.Objective)
	}
	var scope []string
	for _, s := range ch.Scope {
		scope = append(scope, s.Text)
	}
	if got := strings.Join(scope, "|"); got != "one|three" {
		t.Errorf("scope %q", got)
	}
	type cmd struct {
		key, value     string
		malformed, dup bool
		line           string
	}
	want := []cmd{
		{"build", "go build ./...", false, false, "build: go build ./..."},
		{"test", "go test", false, false, "Test : go test"},
		{"", "", true, false, "lint go vet"},
		{"", "", true, false, ": nokey"},
		{"empty", "", true, false, "empty:"},
		{"test", "go test -race", false, true, "test: go test -race"},
	}
	if len(ch.Commands) != len(want) {
		t.Fatalf("commands: got %d want %d: %+v", len(ch.Commands), len(want), ch.Commands)
	}
	for i, w := range want {
		c := ch.Commands[i]
		got := cmd{c.Key, c.Value, c.Malformed, c.Duplicate, string(src[c.LineSpan.Start:c.LineSpan.End])}
		if got != w {
			t.Errorf("command %d: got %+v want %+v", i, got, w)
		}
	}
	if v, _ := ch.Command("test"); v != "go test -race" {
		t.Errorf("last test command should win, got %q", v)
	}
	if ch.QA == nil || strings.TrimSpace(ch.QA.Body) != "manual pass" || ch.Readiness != nil {
		t.Errorf("qa/readiness: %+v %+v", ch.QA, ch.Readiness)
	}
	if ch.Criteria == nil || len(ch.Criteria.Criteria) != 1 || ch.Criteria.Criteria[0].ID != "VAL-L-001" {
		t.Fatalf("legacy criteria: %+v", ch.Criteria)
	}
	if c := ch.Criteria.Criteria[0]; string(src[c.HeadingSpan().Start:c.HeadingSpan().End]) != "### VAL-L-001 Legacy" {
		t.Errorf("legacy heading span %q", src[c.HeadingSpan().Start:c.HeadingSpan().End])
	}
}

func TestParseReport(t *testing.T) {
	cases := []struct {
		name, src          string
		title              string
		objective, outcome string // "content", "empty", "missing"
		notes              string
	}{
		{"fixture-like", "# T\n\n## Objective\n\nDone.\n\n## Outcome\n\n<!-- c -->\n\n## Notes\n", "T", "content", "empty", "empty"},
		{"missing and repeated", "# T\n## Objective\nx\n## Objective\n\n", "T", "empty", "missing", "missing"},
		{"h1 ends section", "## Notes\n# Title later\nnot in notes\n", "Title later", "missing", "missing", "empty"},
		{"normalized heading", "#  Spaced  \n##   OUTCOME   \n  shipped\n", "Spaced", "missing", "content", "missing"},
	}
	state := func(s *ReportSection) string {
		switch {
		case s == nil:
			return "missing"
		case s.HasContent:
			return "content"
		}
		return "empty"
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ParseReport([]byte(c.src))
			got := []string{r.Title, state(r.Objective), state(r.Outcome), state(r.Notes)}
			want := []string{c.title, c.objective, c.outcome, c.notes}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("got %v want %v", got, want)
			}
		})
	}
}
