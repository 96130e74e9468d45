package interview

import "testing"

func TestSafeMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"# Title\ntext", "\\# Title\ntext"},
		{"a\n## Section\nb", "a\n\\## Section\nb"},
		{"x\n  ## indented", "x\n  \\## indented"},
		{"### sub stays", "### sub stays"},
		{"#hashtag stays", "#hashtag stays"},
		{"x\r\n## crlf", "x\n\\## crlf"},
	}
	for _, c := range cases {
		if got := safeMarkdown(c.in); got != c.want {
			t.Errorf("safeMarkdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestOnlyPlaceholders(t *testing.T) {
	for in, want := range map[string]bool{
		"":                            true,
		"TBD":                         true,
		"_TBD_\n\n[To Be Determined]": true,
		"<!-- fill me -->\nTODO":      true,
		"Accountants.":                false,
		"TBD: pricing is open.":       false,
	} {
		if got := onlyPlaceholders(in); got != want {
			t.Errorf("onlyPlaceholders(%q) = %v, want %v", in, got, want)
		}
	}
}
