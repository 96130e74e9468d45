package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// useColor decides whether to colour what goes to w: --color=always or
// never as given; auto colours when FORCE_COLOR is set (to anything but
// "", "0" or "false", as Node's tools read it; it wins over NO_COLOR, so a
// CI log can show colour), else a terminal unless NO_COLOR is set (to
// anything but "", https://no-color.org) or TERM is dumb.
func useColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	switch os.Getenv("FORCE_COLOR") {
	case "", "0", "false":
	default:
		return true
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// ANSI styles.
const (
	sgrReset  = "\x1b[0m"
	sgrBold   = "\x1b[1m"
	sgrDim    = "\x1b[2m"
	sgrRed    = "\x1b[31m"
	sgrGreen  = "\x1b[32m"
	sgrYellow = "\x1b[33m"
	sgrBlue   = "\x1b[34m"
)

func paint(on bool, style, s string) string {
	if !on || s == "" {
		return s
	}
	return style + s + sgrReset
}

var severityStyle = map[diag.Severity]string{
	diag.SeverityError: sgrBold + sgrRed, diag.SeverityWarning: sgrYellow,
	diag.SeverityInformation: sgrBlue, diag.SeverityHint: sgrDim,
}

// writeText prints `file:line:col severity code message`, 1-based as editors
// and compilers print positions, so a terminal or an editor can jump there.
func writeText(w io.Writer, ds []diag.Diagnostic, color bool) error {
	var b strings.Builder
	for i := range ds {
		b.WriteString(textLine(&ds[i], color))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// textLine is d as writeText prints it. A file name or message from the
// repository is one escaped piece of its line (termtext): only our own
// colours and lines reach the terminal or the CI log.
func textLine(d *diag.Diagnostic, color bool) string {
	// Concatenated, not formatted: one line per diagnostic, and fmt boxes
	// each of its arguments.
	at := termtext.Inline(d.File) + ":" + strconv.Itoa(d.Range.Start.Line+1) + ":" + strconv.Itoa(d.Range.Start.Character+1)
	return termtext.Lines(paint(color, sgrBold, at) + " " +
		paint(color, severityStyle[d.Severity], d.Severity.String()) + " " +
		paint(color, sgrDim, d.Code.String()) + " " +
		termtext.Inline(d.Message) + "\n")
}

// jsonArray is what encodeJSON prints around and between the elements of
// an array: before the first, before each other, the empty array, after
// the last.
var jsonArray = [...]string{"[\n  ", ",\n  ", "[]\n", "\n]\n"}

// jsonElement is d as an element of the array encodeJSON prints: indented
// one level deeper, without the newline the encoder ends with.
func jsonElement(d *diag.Diagnostic) ([]byte, error) {
	b, err := indented(d, "  ")
	if err != nil {
		return nil, err
	}
	return termtext.JSON(bytes.TrimSuffix(b, []byte("\n"))), nil
}

// encodeJSON prints v as indented JSON, what every --format json prints:
// the data exact, the bytes free of what a terminal or a CI log acts on
// (termtext.JSON).
func encodeJSON(w io.Writer, v any) error {
	b, err := indented(v, "")
	if err != nil {
		return err
	}
	_, err = w.Write(termtext.JSON(b))
	return err
}

// indented is v encoded as encodeJSON and jsonElement print it, each line
// after the first starting with prefix: indented by two spaces, the data
// exact (no HTML escaping), ending in a newline.
func indented(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeGitHub prints GitHub Actions workflow commands, one per diagnostic,
// which the Actions runner turns into annotations on the pull request.
func writeGitHub(w io.Writer, ds []diag.Diagnostic) error {
	var b strings.Builder
	for i := range ds {
		b.WriteString(githubLine(&ds[i]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// githubLine is d as writeGitHub prints it:
// `::error file=F,line=L,col=C,endLine=…,endColumn=…,title=CODE::MESSAGE`.
// Information and hints become notices.
func githubLine(d *diag.Diagnostic) string {
	level := "notice"
	switch d.Severity {
	case diag.SeverityError:
		level = "error"
	case diag.SeverityWarning:
		level = "warning"
	}
	return fmt.Sprintf("::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", level,
		termtext.GitHubProperty(d.File), d.Range.Start.Line+1, d.Range.Start.Character+1, d.Range.End.Line+1, d.Range.End.Character+1,
		termtext.GitHubProperty("charter-lsp "+d.Code.String()), termtext.GitHubData(d.Message))
}

// tally counts diagnostics by severity, and those --quiet hides.
type tally struct {
	errors, warnings, info, hints int
	hidden                        tallyHidden
}

type tallyHidden struct{ warnings, info, hints int }

func (t *tally) add(s diag.Severity, hidden bool) {
	switch s {
	case diag.SeverityError:
		t.errors++
	case diag.SeverityWarning:
		t.warnings++
		if hidden {
			t.hidden.warnings++
		}
	case diag.SeverityInformation:
		t.info++
		if hidden {
			t.hidden.info++
		}
	case diag.SeverityHint:
		t.hints++
		if hidden {
			t.hidden.hints++
		}
	}
}

// summary is the line check ends with: "3 files checked: 1 error, 4
// warnings", or "… 0 problems" on a clean run.
func (t tally) summary(files int, color bool) string {
	head := count(files, "file", "files") + " checked: "
	var parts []string
	shown := func(n int, one, many, style string, hidden int) {
		if n-hidden > 0 {
			parts = append(parts, paint(color, style, count(n-hidden, one, many)))
		}
	}
	shown(t.errors, "error", "errors", sgrBold+sgrRed, 0)
	shown(t.warnings, "warning", "warnings", sgrYellow, t.hidden.warnings)
	shown(t.info, "info", "info", "", t.hidden.info)
	shown(t.hints, "hint", "hints", "", t.hidden.hints)
	var hidden []string
	if n := t.hidden.warnings; n > 0 {
		hidden = append(hidden, count(n, "warning", "warnings"))
	}
	if n := t.hidden.info; n > 0 {
		hidden = append(hidden, count(n, "info", "info"))
	}
	if n := t.hidden.hints; n > 0 {
		hidden = append(hidden, count(n, "hint", "hints"))
	}
	line := head
	switch {
	case len(parts) > 0:
		line += strings.Join(parts, ", ")
	case len(hidden) > 0:
		line += "0 errors"
	default:
		line += paint(color, sgrGreen, "0 problems")
	}
	if len(hidden) > 0 {
		line += " (" + strings.Join(hidden, ", ") + " not shown: --quiet)"
	}
	return line
}

// count writes "1 file", "2 files".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
