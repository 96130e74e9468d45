package interview

import "testing"

func TestDropPlaceholderLines(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "",
		"TBD":                                "",
		"_TBD_\n\n[To Be Determined]":        "",
		"<!-- fill me -->\nTODO":             "",
		"Accountants.":                       "Accountants.",
		"TBD: pricing is open.":              "TBD: pricing is open.",
		"Engineering leads.\n- _TBD_":        "Engineering leads.",
		"A TODO app for teams.\n\nTBD\nEnd.": "A TODO app for teams.\n\nEnd.",
	} {
		if got := dropPlaceholderLines(in); got != want {
			t.Errorf("dropPlaceholderLines(%q) = %q, want %q", in, got, want)
		}
	}
}
