package pi

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

func TestParseEvidence(t *testing.T) {
	cases := []struct {
		name     string
		src      string
		rows     []string // criterionId of each row
		problems []string // "code@text" of each problem
	}{
		{"single object", `{"criterionId":"VAL-A","outcome":"pass","summary":"s","ts":"2026-01-01T00:00:00Z"}`, []string{"VAL-A"}, nil},
		{"array", "[\n {\"criterionId\":\"VAL-A\"},\n {\"criterionId\":\"VAL-B\"}\n]", []string{"VAL-A", "VAL-B"}, nil},
		{"non-object row", `[{"criterionId":"VAL-A"}, 3]`, []string{"VAL-A"}, []string{"evidence-invalid@3"}},
		{"scalar", `"x"`, nil, []string{`evidence-invalid@"x"`}},
		{"syntax error", "{\"criterionId\": \"VAL-A\",,}", nil, []string{"json-invalid@,"}},
		{"truncated", "[{\"criterionId\": ", nil, []string{`json-invalid@[{"criterionId": `}},
		{"empty", "", nil, []string{"json-invalid@"}},
		{"trailing data", `{} {}`, nil, []string{"json-invalid@{"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			rows, problems := ParseEvidence(src)
			var ids, ps []string
			for _, r := range rows {
				ids = append(ids, r.CriterionID)
				if got := string(src[r.Span.Start:r.Span.End]); !strings.HasPrefix(got, "{") || !strings.HasSuffix(got, "}") {
					t.Errorf("row span %q", got)
				}
			}
			for _, p := range problems {
				ps = append(ps, p.Code.String()+"@"+string(src[p.Span.Start:p.Span.End]))
			}
			if strings.Join(ids, ",") != strings.Join(c.rows, ",") || strings.Join(ps, "|") != strings.Join(c.problems, "|") {
				t.Errorf("rows %v problems %v; want %v %v", ids, ps, c.rows, c.problems)
			}
		})
	}
}

func TestEvidenceSchema(t *testing.T) {
	src := []byte(`{
  "criterionId": "VAL-A",
  "outcome": "passed",
  "summary": "s",
  "ts": "yesterday",
  "source": "robot",
  "recordedBy": "subagent:qa",
  "narrativePath": "/tmp/n.md",
  "artifacts": {},
  "confidence": "high",
  "because": "ok"
}`)
	rows, problems := ParseEvidence(src)
	if len(problems) != 0 || len(rows) != 1 {
		t.Fatalf("rows %d problems %v", len(rows), problems)
	}
	var got []string
	for _, p := range rows[0].SchemaProblems() {
		got = append(got, string(src[p.Span.Start:p.Span.End]))
	}
	want := []string{`"passed"`, `"yesterday"`, `"robot"`, `"subagent:qa"`, `"/tmp/n.md"`, `{}`, `"confidence"`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("problems at %v, want %v", got, want)
	}
	missing := []byte(`{"outcome":"pass"}`)
	rows, _ = ParseEvidence(missing)
	if n := len(rows[0].SchemaProblems()); n != 3 {
		t.Errorf("want 3 missing-property problems, got %d", n)
	}
}

func TestParseState(t *testing.T) {
	for raw, want := range map[string]string{"active": "active", "Planning": "active", "done": "completed", "canceled": "abandoned", "on-hold": "paused", "weird": "weird"} {
		st, problems := ParseState([]byte(`{"charterId":"c","schemaVersion":2,"status":"` + raw + `"}`))
		if len(problems) != 0 || st.Status != want || st.SchemaVersion != "2" {
			t.Errorf("%s: got %q (%v)", raw, st.Status, problems)
		}
	}
	if _, problems := ParseState([]byte(`[1]`)); len(problems) != 1 || problems[0].Code != diag.JSONInvalid {
		t.Errorf("array state.json: %v", problems)
	}
}

func TestParseCriterionState(t *testing.T) {
	src := []byte(`{"charterId":"c","criteria":{"VAL-A":{"outcome":"pass","lastTs":"2026-01-01T00:00:00Z"},"VAL-B":7},"lastToolWriteAt":"2026-01-02T00:00:00Z"}`)
	st, problems := ParseCriterionState(src)
	if len(problems) != 1 || string(src[problems[0].Span.Start:problems[0].Span.End]) != "7" {
		t.Errorf("problems %v", problems)
	}
	e := st.Entry("VAL-A")
	if e == nil || e.Outcome != "pass" || string(src[e.KeySpan.Start:e.KeySpan.End]) != `"VAL-A"` || st.LastToolWriteAt == "" {
		t.Errorf("entry %+v", e)
	}
}
