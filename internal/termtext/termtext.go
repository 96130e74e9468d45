// Package termtext is the one home of escaping what a repository controls
// — file and folder names, titles, messages quoting a charter — for every
// output the CLI prints, so that every line of every output stays ours:
//
//   - A terminal obeys escape sequences (ESC [, OSC, the 8-bit C1
//     controls): recolour, clear the screen, retitle the window, plant a
//     hyperlink, write the clipboard (OSC 52).
//   - A line break (LF, CR, U+2028) in a folder name would start a line of
//     the repository's choosing; GitHub Actions executes a workflow command
//     from any line of a step's output (`::warning file=…::…`,
//     `::stop-commands::…` at the start of a line, leading whitespace
//     ignored; the older `##[command]…` anywhere in a line).
//   - A bidirectional control (U+202E and friends) reorders what a reader
//     sees: `exe.txt` shown for `txt.exe`.
//
// Inline is text inside one line (Sprintf and Fprintf apply it to their
// arguments), Escape a block of the repository's lines (a preview, a
// diff), Lines the last check on a whole output, JSON the bytes of an
// encoded JSON document, GitHubData and GitHubProperty the parts of a
// workflow command. Each shows an escaped character as a Go escape:
// ESC as `\x1b`, U+202E as `\u202e`.
package termtext

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inline returns s ready to stand inside one line of our output: every
// control character (C0 — newline, carriage return and tab included —, DEL,
// C1), line and paragraph separator, bidirectional control and byte that is
// not UTF-8 written as a visible escape. Other text is unchanged; s comes
// back as is when it holds nothing to escape.
func Inline(s string) string { return escape(s, false) }

// Escape is Inline for a block of lines (a file's content in a preview, a
// diff): its layout is kept — newlines, "\r\n" and tabs. Print the result
// through Lines.
func Escape(s string) string { return escape(s, true) }

func escape(s string, block bool) string {
	i := 0
	for i < len(s) {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++ // printable ASCII, most of what is printed: no rune to decode
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 && r == utf8.RuneError || escaped(r, block && layout(s, i)) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		esc := escaped(r, block && layout(s, i))
		switch {
		case n == 1 && r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case esc && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case esc:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// layout reports whether the byte at i is a block's layout: a newline, a
// tab, or the carriage return of a "\r\n".
func layout(s string, i int) bool {
	switch s[i] {
	case '\n', '\t':
		return true
	case '\r':
		return i+1 < len(s) && s[i+1] == '\n'
	}
	return false
}

// escaped reports whether r is not printed as it is: a control character
// (but a block's layout), a line or paragraph separator, or a
// bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069).
func escaped(r rune, layout bool) bool {
	switch {
	case layout:
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r < 0x61c:
		return false
	}
	return r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

// Lines is the last check on a whole output whose repository text went
// through Inline or Escape (or is a diff meant for patch): a line that
// would still read as a CI command has it escaped — "::" first after white
// space (and our own colours), a GitHub Actions workflow command, gets its
// first ":" escaped; "##[" (Actions' older commands) and "##vso[" (Azure
// Pipelines' logging commands), anywhere in a line, their second "#" —
// and a carriage return not followed by a newline, which the Actions
// runner reads as a line's end, is escaped. "\r\n" stays a line end. Our
// own lines never have these shapes; --format github writes its commands
// without this check.
func Lines(s string) string {
	// Only these shapes change a line ("##" alone does not: a message may
	// quote a markdown heading).
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") && !strings.Contains(s, "##vso[") && !strings.Contains(s, "\r") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, line := range lines {
		line = escapeLoneCR(line)
		if at := lineStart(line); strings.HasPrefix(line[at:], "::") {
			line = line[:at] + `\x3a` + line[at+1:]
		}
		lines[i] = ciCommand.Replace(line)
	}
	return strings.Join(lines, "")
}

var ciCommand = strings.NewReplacer("##[", `#\x23[`, "##vso[", `#\x23vso[`)

func escapeLoneCR(line string) string {
	if !strings.Contains(line, "\r") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] == '\r' && (i+1 == len(line) || line[i+1] != '\n') {
			b.WriteString(`\x0d`)
			continue
		}
		b.WriteByte(line[i])
	}
	return b.String()
}

// lineStart is where line's text starts: after white space (as the Actions
// runner trims it: Unicode white space) and SGR sequences (ESC [ … m: the
// colours we paint).
func lineStart(line string) int {
	i := 0
	for i < len(line) {
		if strings.HasPrefix(line[i:], "\x1b[") {
			if end := strings.IndexByte(line[i:], 'm'); end > 0 {
				i += end + 1
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// Sprintf formats like fmt.Sprintf with every string, error and
// fmt.Stringer argument through Inline (the format is ours, the arguments
// may be the repository's; %q quotes the argument as it is, escaping
// already), then applies Lines.
func Sprintf(format string, args ...any) string {
	return Lines(fmt.Sprintf(format, fields(args)...))
}

// Fprintf is Sprintf written to w.
func Fprintf(w io.Writer, format string, args ...any) (int, error) {
	return io.WriteString(w, Sprintf(format, args...))
}

func fields(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = field(v)
		case error:
			out[i] = field(v.Error())
		case fmt.Stringer:
			out[i] = field(v.String())
		default:
			out[i] = a
		}
	}
	return out
}

// field is an argument of Sprintf: Inline under every verb but %q.
type field string

func (f field) Format(st fmt.State, verb rune) {
	s := string(f)
	if verb != 'q' {
		s = Inline(s)
	}
	fmt.Fprintf(st, fmt.FormatString(st, verb), s)
}

// JSON returns an encoded JSON document (encoding/json's output: control
// characters below U+0020, U+2028 and U+2029 already escaped, invalid
// UTF-8 replaced) with the characters a terminal or a reader would act on
// written as JSON escapes: DEL, the C1 controls and the bidirectional
// controls as \uXXXX, and the second "#" of "##" as \u0023 (a "##[" or
// "##vso[" in a line is a CI command, see Lines). Each can only be inside a
// string (JSON's structure is ASCII without "#"), where the escape decodes
// to the same text: the data stays exact.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if jsonEscaped(b, i, r) {
			break
		}
		i += n
	}
	if i == len(b) {
		return b
	}
	out := bytes.NewBuffer(make([]byte, 0, len(b)+16))
	out.Write(b[:i])
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if jsonEscaped(b, i, r) {
			fmt.Fprintf(out, `\u%04x`, r)
		} else {
			out.Write(b[i : i+n])
		}
		i += n
	}
	return out.Bytes()
}

func jsonEscaped(b []byte, i int, r rune) bool {
	if r == '#' {
		return i > 0 && b[i-1] == '#'
	}
	return r >= 0x7f && escaped(r, false)
}

// GitHubData escapes a workflow command's message as the Actions runner
// reads it back ("%", CR and LF as %25, %0D, %0A), after Escape: a message
// may span lines in the annotation, never hold a control character.
func GitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(Escape(s))
}

// GitHubProperty escapes a workflow command's property value (file=,
// title=): Inline, then "%", ":" and "," (which end or separate
// properties) as %25, %3A and %2C.
func GitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", ":", "%3A", ",", "%2C").Replace(Inline(s))
}
