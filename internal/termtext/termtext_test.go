package termtext

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain — text ✓\tand\nlines", "plain — text ✓\tand\nlines"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"\x1b]52;c;cGF5bG9hZA==\x1b\\", `\x1b]52;c;cGF5bG9hZA==\x1b\`},
		{"over\rwrite", `over\x0dwrite`},
		{"crlf\r\nkept\r\r\n", "crlf\r\nkept\\x0d\r\n"},
		{"back\bspace\x7f", `back\x08space\x7f`},
		{"c1 \u009b2J csi", `c1 \u009b2J csi`},
		{"raw \x9b2J byte", `raw \x9b2J byte`},
		{"kept \ufffd replacement", "kept \ufffd replacement"},
		{"txt.\u202eexe", `txt.\u202eexe`},
		{"line\u2028separator", `line\u2028separator`},
		{"", ""},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestInline(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain — text ✓", "plain — text ✓"},
		{"a\nb", `a\x0ab`},
		{"a\tb\r\n", `a\x09b\x0d\x0a`},
		{".charters/x\n::warning file=README.md::forged", `.charters/x\x0a::warning file=README.md::forged`},
		{"\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", `\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069`},
		{"NEL\u0085", `NEL\u0085`},
		{"\xff", `\xff`},
	} {
		if got := Inline(c.in); got != c.want {
			t.Errorf("Inline(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Nothing Inline returns holds a character it escapes.
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		out := Inline(string(r))
		for _, o := range out {
			if unicode.IsControl(o) || unicode.Is(unicode.Bidi_Control, o) || o == '\u2028' || o == '\u2029' {
				t.Fatalf("Inline(%U) = %q keeps %U", r, out, o)
			}
		}
	}
}

func TestLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ours: a line\n", "ours: a line\n"},
		{"a\n::warning file=x::forged\n", "a\n\\x3a:warning file=x::forged\n"},
		{"  \u00a0\u3000::stop-commands::tok\n", "  \u00a0\u3000\\x3a:stop-commands::tok\n"},
		{"\x1b[1m::error::x\x1b[0m", "\x1b[1m\\x3a:error::x\x1b[0m"},
		{"title ##[error]legacy and ###[group]", "title #\\x23[error]legacy and ##\\x23[group]"},
		{"mid: a::b is fine", "mid: a::b is fine"},
		{"cr\r::x", `cr\x0d::x`},
		{"crlf kept\r\n::x\r\n", "crlf kept\r\n\\x3a:x\r\n"},
		{"\r\r\r\n", `\x0d\x0d` + "\r\n"},
		{"azure ##vso[task.setvariable variable=x]y", `azure #\x23vso[task.setvariable variable=x]y`},
	} {
		got := Lines(c.in)
		if got != c.want {
			t.Errorf("Lines(%q) = %q, want %q", c.in, got, c.want)
		}
		if Lines(got) != got {
			t.Errorf("Lines is not idempotent on %q", got)
		}
	}
}

func TestSprintf(t *testing.T) {
	name := "a\n::warning::x \u202e"
	got := Sprintf("%s:%d %-8s|%v %q %s\n", name, 3, "ab", errors.New("open "+name), "q\u202e", stringer("s\x1b"))
	want := `a\x0a::warning::x \u202e:3 ab      |open a\x0a::warning::x \u202e "q\u202e" s\x1b` + "\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := Sprintf("%s\n", "::warning::forged"); got != "\\x3a:warning::forged\n" {
		t.Errorf("an argument first in the line: %q", got)
	}
}

type stringer string

func (s stringer) String() string { return string(s) }

func TestJSON(t *testing.T) {
	value := map[string]string{"name": "a\n::warning::x", "bidi": "txt.\u202eexe \u2066", "c1": "\u009b\u007f", "legacy": "##[error]x", "azure": "###vso[task.complete]", "plain": "é ✓ [x] # ["}
	raw, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(raw)
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for k, v := range value {
		if back[k] != v {
			t.Errorf("%s: %q after escaping, want %q", k, back[k], v)
		}
	}
	for _, r := range string(out) {
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)) {
			t.Errorf("raw %U in %s", r, out)
		}
	}
	if strings.Contains(string(out), "##") {
		t.Errorf("## in %s", out)
	}
	plain := []byte(`{"a": ["x", 1]}`)
	if got := JSON(plain); string(got) != string(plain) {
		t.Errorf("JSON changed %s to %s", plain, got)
	}
}

func TestGitHub(t *testing.T) {
	if got, want := GitHubData("100% sure\r\nsecond \x1b[2J\u202e\rthird"), `100%25 sure%0D%0Asecond \x1b[2J\u202e\x0dthird`; got != want {
		t.Errorf("data %q, want %q", got, want)
	}
	if got, want := GitHubProperty("docs/a,b:c\n.md"), `docs/a%2Cb%3Ac\x0a.md`; got != want {
		t.Errorf("property %q, want %q", got, want)
	}
}
