package interview

import "testing"

// An answer is carried over whole: headings that would end the section it
// goes into are demoted, deeper ones and code are left alone.
func TestSafeMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"# Title\ntext", "### Title\ntext"},
		{"a\n## Section\nb", "a\n### Section\nb"},
		{"x\n  ## indented", "x\n  ### indented"},
		{"### Out of scope\n- billing", "### Out of scope\n- billing"},
		{"#hashtag stays", "#hashtag stays"},
		{"x\r\n## crlf", "x\n### crlf"},
		{"```\n## in code\n```", "```\n## in code\n```"},
		{"Run:\n```sh\nmake", "Run:\n```sh\nmake\n```"}, // an open fence would swallow the next section
	}
	for _, c := range cases {
		if got := safeMarkdown(c.in); got != c.want {
			t.Errorf("safeMarkdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

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
