package rp1

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf16"
)

// TestCRLF: with CRLF line endings every fixture renders exactly as with LF
// (same LSP positions, same values), so spans skip the extra '\r' correctly.
func TestCRLF(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	corpus, _ := filepath.Glob("testdata/corpus/*.md")
	files = append(files, corpus...)
	for _, md := range files {
		src, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
		if got, want := render(crlf), render(src); got != want {
			t.Errorf("%s: CRLF output differs:\n%s\n--- LF\n%s", md, got, want)
		}
	}
}

// TestNonASCIISpans checks byte spans and UTF-16 columns by hand on text
// with accents, a middle dot and astral-plane emoji.
func TestNonASCIISpans(t *testing.T) {
	src, err := os.ReadFile("testdata/nonascii.md")
	if err != nil {
		t.Fatal(err)
	}
	ch := Parse(src)
	users := ch.Section(Users)
	if users == nil || len(users.Problems) != 1 {
		t.Fatalf("want one problem in Target Users, got %+v", users)
	}
	p := users.Problems[0]
	if got := string(src[p.Span.Start:p.Span.End]); got != "_TBD_" {
		t.Fatalf("span covers %q", got)
	}
	line := "Ingenieur·innen in kleinen Firmen 🏢 — Zielgruppe: "
	r := ch.Index.Range(p.Span)
	if want := len(utf16.Encode([]rune(line))); r.Start.Character != want || r.End.Character != want+5 {
		t.Errorf("range %+v, want columns %d-%d", r, want, want+5)
	}
	e := ch.ScratchPad.Entries[0]
	if got := string(src[e.AnswerSpan.Start:e.AnswerSpan.End]); got != e.Answer {
		t.Errorf("answer span %q, value %q", got, e.Answer)
	}
	if e.Topic != "Value Proposition 💡" {
		t.Errorf("topic %q", e.Topic)
	}
}
