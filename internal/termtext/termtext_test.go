package termtext

import "testing"

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain — text ✓\tand\nlines", "plain — text ✓\tand\nlines"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"\x1b]52;c;cGF5bG9hZA==\x1b\\", `\x1b]52;c;cGF5bG9hZA==\x1b\`},
		{"over\rwrite", `over\x0dwrite`},
		{"back\bspace\x7f", `back\x08space\x7f`},
		{"c1 \u009b2J csi", `c1 \u009b2J csi`},
		{"raw \x9b2J byte", `raw \x9b2J byte`},
		{"kept \ufffd replacement", "kept \ufffd replacement"},
		{"", ""},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
