package charterfile

import (
	"strings"
	"testing"
)

// completeAt runs CompleteAt at the "|" in src (removed first) and returns
// the labels offered and the text the chosen one replaces.
func completeAt(g Generation, src string) (labels []string, replaced string) {
	at := strings.Index(src, "|")
	text := src[:at] + src[at+1:]
	comp := Parse(g, []byte(text)).CompleteAt(at)
	if comp == nil {
		return nil, ""
	}
	for _, it := range comp.Items {
		labels = append(labels, it.Label)
	}
	return labels, text[comp.Span.Start:comp.Span.End]
}

func TestCompleteAt(t *testing.T) {
	const head = "## Objective\nShip.\n## Criteria\n### C1. One\nStatus: pass — ok\n### C2. Two\n"
	for _, tc := range []struct {
		name     string
		gen      Generation
		src      string
		want     string // labels joined by " "; "" for none
		replaced string
	}{
		{"depends, first id", FI15, head + "Depends: |\n", "C1", ""},
		{"depends, partial id", FI15, head + "Depends: C|\n", "C1", "C"},
		{"depends, listed ids left out", FI15, head + "### C3. Three\nDepends: C1, |\n", "C2", ""},
		{"status token", FI15, head + "Status: in|-progress — note\n", "pending in-progress blocked pass fail", "in-progress"},
		{"status note", FI15, head + "Status: pass — a no|te\n", "", ""},
		{"evidence token in FI15", FI15, head + "Evidence: |\n", "pass fail none", ""},
		{"ADR-0014 has no Status lines", FI14, head + "Status: |\n", "", ""},
		{"ADR-0014 evidence", FI14, head + "Evidence: p|\n", "pass fail none", "p"},
		{"label", FI15, head + "De|\n", "Depends:", "De"},
		{"label of ADR-0014", FI14, head + "|\n", "Evidence: Depends:", ""},
		{"in the label", FI15, head + "Sta|tus: pass\n", "", ""},
		{"inside a comment", FI15, head + "Status: <!-- |x --> pass\n", "", ""},
		{"outside a criterion", FI15, "## Objective\nSta|\n", "", ""},
		{"phase suffix", PH, "# Objective\nX\n## Phases\n1. Map -|\n", "— upcoming — current — done", " -"},
		{"phase suffix, word begun", PH, "# Objective\nX\n## Phases\n1. Map – do|ne\n", "— upcoming — current — done", " – done"},
		{"not a phase item", PH, "# Objective\nX\n## Phases\n- Map -|\n", "", ""},
		{"an item outside ## Phases", PH, "# Objective\nX\n## Phases\n1. A\n## Notes\n1. Map -|\n", "", ""},
		{"objective grammar", OBJ, "# Objective\nX\n## Phases\n1. Map -|\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels, replaced := completeAt(tc.gen, tc.src)
			if got := strings.Join(labels, " "); got != tc.want || replaced != tc.replaced {
				t.Errorf("offered %q replacing %q, want %q replacing %q", got, replaced, tc.want, tc.replaced)
			}
		})
	}
}
