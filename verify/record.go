package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/atomicfile"
	"github.com/charter-lsp/charter-lsp/record"
)

// ArtifactName is the output's file in the run folder.
const ArtifactName = "output.log"

// Summary bounds: the tail of the output a summary quotes.
const (
	tailLines = 20
	tailBytes = 2 << 10
)

// Outcome is pass when the command exited 0, else fail.
func (r *Result) Outcome() pi.Outcome {
	if r.ExitCode == 0 {
		return pi.Pass
	}
	return pi.Fail
}

// Ran says in a few words how the run ended: "`go test ./...` exited 0 in
// 1.2s".
func (r *Result) Ran() string {
	return fmt.Sprintf("`%s` exited %d in %s", r.Command, r.ExitCode, r.Duration.Round(100*time.Millisecond))
}

// Summary is the evidence summary: how the command ended and the tail of
// its output; for a weak command, that it can pass on zero tests and the
// user ran it anyway.
func (r *Result) Summary(v pi.Verification) string {
	var b strings.Builder
	if v.Weak != nil {
		fmt.Fprintf(&b, "Weak verifier, run after the user confirmed it: %s.\n", strings.TrimSuffix(v.Weak.Reason, "."))
	}
	b.WriteString(r.Ran())
	if tail := r.Tail(); tail != "" {
		b.WriteString(":\n")
		b.WriteString(tail)
	} else {
		b.WriteString(", printing nothing")
	}
	return b.String()
}

// Details are the evidence row's details: {command, exitCode, durationMs},
// plus commandKey when the command is a ## Commands entry, weakVerifier when
// it can pass on zero tests, outputBytes and truncated when the artifact
// holds less than the command printed.
func (r *Result) Details(v pi.Verification) map[string]any {
	d := map[string]any{"command": r.Command, "exitCode": r.ExitCode, "durationMs": r.Duration.Milliseconds()}
	if v.Key != "" {
		d["commandKey"] = v.Key
	}
	if v.Weak != nil {
		d["weakVerifier"] = v.Weak.Reason
	}
	if r.Truncated {
		d["outputBytes"], d["truncated"] = r.Total, true
	}
	return d
}

// Log is the artifact: a header saying what ran where and when, the
// output, and how it ended.
func (r *Result) Log(id string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# charter-lsp verify %s\n# command: %s\n# folder: %s\n# started: %s\n\n", id, oneLine(r.Command), r.Dir, record.ISOTime(r.Start))
	b.Write(r.Output)
	if len(r.Output) > 0 && r.Output[len(r.Output)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n# exit %d after %d ms", r.ExitCode, r.Duration.Milliseconds())
	if r.Truncated {
		fmt.Fprintf(&b, "; %d bytes printed, the middle left out", r.Total)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// ansi matches terminal escape sequences: CSI (colours, cursor moves), OSC
// (titles, links) up to BEL or ST, and two-byte escapes.
var ansi = regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[@-Z\\\\-_]")

// Plain is output as text to show or quote: colours and other escape
// sequences removed, invalid UTF-8 replaced, "\r\n" and a lone "\r" (a
// progress line's rewrite) made "\n", control characters other than tab
// and newline dropped, bidirectional controls too.
func Plain(b []byte) string {
	text := ansi.ReplaceAllString(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))), "")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return strings.Map(func(c rune) rune {
		switch {
		case c == '\n' || c == '\t':
			return c
		case c == '\r':
			return '\n'
		case unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c):
			return -1
		}
		return c
	}, text)
}

// Tail is the end of the output as a summary quotes it: the last lines
// (at most 20, 2 KB) of Plain, trailing blank lines trimmed.
func (r *Result) Tail() string {
	text := Plain(r.Output)
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	lines := strings.Split(text, "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	out := strings.Join(lines, "\n")
	if len(out) > tailBytes {
		cut := len(out) - tailBytes
		for cut < len(out) && out[cut]&0xC0 == 0x80 {
			cut++
		}
		out = "…" + out[cut:]
	}
	return strings.TrimLeft(out, "\n")
}

// PiEntry is the evidence entry for a pi-charter VAL, as `charter-lsp
// record --source verifier` writes it: recorded by the user who asked for
// the run, under the VAL's milestone, with the output attached.
func (r *Result) PiEntry(c *pi.Criterion, v pi.Verification) record.Entry {
	e, _ := record.EditorEntry(c, r.Outcome(), r.Summary(v), nil)
	e.Source = string(pi.SourceVerifier)
	e.Details = r.Details(v)
	e.Attach = []record.Attachment{{Name: ArtifactName, Content: r.Log(c.ID)}}
	return e
}

// ChartersStatus is the status token a .charters criterion gets: pass or
// fail (both read by every file-interface grammar).
func (r *Result) ChartersStatus() charterfile.Status {
	if r.ExitCode == 0 {
		return charterfile.StatusPass
	}
	return charterfile.StatusFail
}

// ChartersNote is the note of the criterion's Status (ADR-0014: Evidence)
// line: how the command ended, the last line it printed, where the output
// is, and the date.
func (r *Result) ChartersNote(v pi.Verification, artifact string) string {
	note := r.Ran()
	if v.Weak != nil {
		note = "weak verifier, run anyway: " + note
	}
	if last := LastLine(r.Tail(), 120); last != "" {
		note += ": " + last
	}
	return fmt.Sprintf("%s (output: %s; %s)", note, artifact, r.Start.UTC().Format(time.DateOnly))
}

// LastLine is the last line of text that is not blank, its spaces
// collapsed, cut to at most max bytes (at a character, with "…").
func LastLine(text string, max int) string {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.Join(strings.Fields(lines[i]), " ")
		if l == "" {
			continue
		}
		if len(l) > max {
			cut := max
			for cut > 0 && l[cut]&0xC0 == 0x80 {
				cut--
			}
			l = l[:cut] + "…"
		}
		return l
	}
	return ""
}

// oneLine is s with its line breaks shown as spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ChartersArtifact creates the output file of a run for criterion id of
// the .charters/<id> folder dir: work/verify/<criterion>/<stamp>/output.log
// (stamp as evidence runs are named, -1, -2… on collision), written inside
// dir through atomicfile, never through a symbolic link. It returns the
// file's path relative to dir, with '/'.
func ChartersArtifact(dir, id string, r *Result) (string, error) {
	in := atomicfile.In(dir)
	stamp := record.Stamp(r.Start)
	for n := 0; n < 100; n++ {
		name := stamp
		if n > 0 {
			name = fmt.Sprintf("%s-%d", stamp, n)
		}
		rel := path.Join("work", "verify", id, name, ArtifactName)
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := in.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		err := in.Create(p, r.Log(id), 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return rel, err
	}
	return "", fmt.Errorf("no free run folder under work/verify/%s for %s", id, stamp)
}

// WriteCharter applies fix to charter.md at p inside the folder root, on
// disk, atomically and never through a symbolic link — provided the file
// still holds old, the text the fix was computed against.
func WriteCharter(root, p string, old []byte, fix *diag.Fix) error {
	now, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, old) {
		return fmt.Errorf("%s changed while the command ran; nothing written", filepath.Base(p))
	}
	text, err := diag.ApplyEdits(old, fix.Edits)
	if err != nil {
		return err
	}
	return atomicfile.In(root).Write(p, text, 0o644)
}

// ChartersFix is the edit of the criterion's Status line that records r,
// against the charter as parsed (c).
func (r *Result) ChartersFix(c *charterfile.Charter, id string, v pi.Verification, artifact string) (*diag.Fix, error) {
	return c.SetStatusNote(id, r.ChartersStatus(), r.ChartersNote(v, artifact))
}
