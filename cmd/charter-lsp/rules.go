package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

const rulesAbout = `Lists every diagnostic code: its default severity, family, whether its quick fixes are safe or
unsafe (check --fix applies safe ones; --unsafe-fixes the others) and what triggers it. 'charter-lsp
explain CODE' prints one code's entry; both come from the catalogue docs/diagnostics.md is made from.`

func runRules(e *env, args []string) int {
	fl := newFlags("rules", "[--format text|json]", rulesAbout, e)
	format := newChoice("text", "text", "json")
	fl.Var(format, "format", "output `format`: text or json (an array of {code, defaultSeverity, family, fix, upstream, summary, example, howToFix, url})")
	fl.alias("f", "format")
	rest, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return fl.usageError("unexpected argument %q (charter-lsp explain %s describes one code)", rest[0], rest[0])
	}
	all := diag.Descriptions()
	if format.value == "json" {
		return writeJSONValue(e, all)
	}
	width := 0
	for _, d := range all {
		width = max(width, len(d.Code))
	}
	family := ""
	for _, d := range all {
		if d.Family != family {
			if family != "" {
				fmt.Fprintln(e.stdout)
			}
			family = d.Family
			fmt.Fprintf(e.stdout, "%s:\n", family)
		}
		fix := ""
		if d.Fix != diag.FixNone.String() {
			fix = "fix: " + d.Fix
		}
		fmt.Fprintf(e.stdout, "  %-*s %-11s %-20s %s\n", width, d.Code, d.Severity, fix, d.Summary)
	}
	fmt.Fprintf(e.stdout, "\nEach code is described at %s#CODE, and by 'charter-lsp explain CODE'.\n", diag.DocsURL)
	return 0
}

const explainAbout = `Prints what a diagnostic code means: what triggers it, its default severity, an example that
triggers it, how to fix it, whether its quick fixes are safe, and the URL of its documentation.`

func runExplain(e *env, args []string) int {
	fl := newFlags("explain", "CODE [--format text|json]", explainAbout, e)
	format := newChoice("text", "text", "json")
	fl.Var(format, "format", "output `format`: text or json (one object, as rules --format json)")
	fl.alias("f", "format")
	rest, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		return fl.usageError("give one CODE ('charter-lsp rules' lists them)")
	}
	c, known := diag.ParseCode(rest[0])
	if !known {
		msg := fmt.Sprintf("unknown code %q", rest[0])
		if near := nearestCode(rest[0]); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		} else {
			msg += " ('charter-lsp rules' lists them)"
		}
		return fl.usageError("%s", msg)
	}
	d := diag.Describe(c)
	if format.value == "json" {
		return writeJSONValue(e, d)
	}
	writeExplanation(e.stdout, d)
	return 0
}

// writeExplanation prints one code's entry as text.
func writeExplanation(w io.Writer, d diag.Description) {
	fmt.Fprintf(w, "%s (%s)\n\n%s\n\n", d.Code, d.Family, d.Summary)
	fmt.Fprintf(w, "Default severity: %s.", d.Severity)
	if d.Fix != diag.FixNone.String() {
		fmt.Fprintf(w, " Fix: %s.", d.Fix)
	}
	if d.Upstream {
		fmt.Fprint(w, " One of upstream pi-charter's own parse warnings.")
	}
	fmt.Fprintf(w, "\n\nExample:\n\n%s\n\nFix: %s\n\nMore: %s\n", indentLines(d.Example, "    "), d.HowToFix, d.URL)
}

func indentLines(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// nearestCode is the code within three edits of name, if any.
func nearestCode(name string) string {
	best, bestD := "", 4
	for _, r := range diag.Rules {
		if d := textdist.Distance(name, r.Name); d < bestD {
			best, bestD = r.Name, d
		}
	}
	return best
}

// writeJSONValue prints v as indented JSON on stdout.
func writeJSONValue(e *env, v any) int {
	if err := encodeJSON(e.stdout, v); err != nil {
		fmt.Fprintf(e.stderr, "charter-lsp: %v\n", err)
		return 2
	}
	return 0
}
