package source

import "testing"

func TestLineEndings(t *testing.T) {
	for src, want := range map[string]string{
		"": "\n", "a": "\n", "a\nb\r\n": "\n", "a\r\nb\n": "\r\n", "\r\n": "\r\n", "\n\r\n": "\n", "a\r": "\n",
	} {
		if got := LineEnding([]byte(src)); got != want {
			t.Errorf("LineEnding(%q) = %q, want %q", src, got, want)
		}
	}
	src := []byte("a\r\nb\nc")
	for off, want := range map[int]string{1: "\r\n", 4: "\n", 6: "\r\n", 99: "\r\n"} {
		if got := LineEndingAt(src, off); got != want {
			t.Errorf("LineEndingAt(%q, %d) = %q, want %q", src, off, got, want)
		}
	}
	if got := LineEndingAt([]byte("a\nb"), 3); got != "\n" {
		t.Errorf("at the end of an LF text: %q", got)
	}
	for _, c := range []struct{ s, nl, want string }{
		{"a\nb\r\nc", "\r\n", "a\r\nb\r\nc"},
		{"a\r\nb\nc", "\n", "a\nb\nc"},
	} {
		if got := WithLineEnding(c.s, c.nl); got != c.want {
			t.Errorf("WithLineEnding(%q, %q) = %q", c.s, c.nl, got)
		}
	}
}
