package diag

import (
	"os"
	"regexp"
	"testing"
)

func TestEveryRuleIsDocumented(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Name] {
			t.Errorf("code %q listed twice", r.Code)
		}
		seen[r.Name] = true
		if !kebab.MatchString(r.Name) {
			t.Errorf("code %q is not kebab-case", r.Code)
		}
		if r.Severity < SeverityError || r.Severity > SeverityHint {
			t.Errorf("code %q has no default severity", r.Code)
		}
		d, ok := Docs[r.Code]
		if !ok || d.Example == "" || d.Fix == "" || r.Summary == "" {
			t.Errorf("code %q lacks a summary, example or fix", r.Code)
		}
	}
	for code := range Docs {
		if !seen[code.String()] {
			t.Errorf("Docs documents %q, which is not in Rules", code)
		}
	}
}

func TestDiagnosticsDocIsGenerated(t *testing.T) {
	got, err := os.ReadFile("../../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != Markdown() {
		t.Fatal("docs/diagnostics.md is out of date: run `go run ./internal/gendocs`")
	}
}

func TestParseSeverity(t *testing.T) {
	for name, want := range map[string]Severity{"error": SeverityError, "Warning": SeverityWarning, "info": SeverityInformation, "hint": SeverityHint, "off": SeverityOff} {
		got, err := ParseSeverity(name)
		if err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := ParseSeverity("loud"); err == nil {
		t.Error("ParseSeverity(loud) should fail")
	}
}
