package lsp_test

import (
	"fmt"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// The protocol tests see what the server checked through its real checks.
// The probe is a pi charter's charter.md whose "## Commands" lines have no
// colon: the check reports each one (malformed-command), quoting it, so
// the diagnostics published for a version say which text was checked, line
// by line. How many checks ran is the server's own count (Server.Checks,
// which the benchmarks report too).
const (
	probeFile = ".pi/charters/probe/charter.md"
	probeHead = "## Commands\n"
)

// checked are the lines the check quoted in the diagnostics ds, in order.
func checked(ds []protocol.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		if d.Code != protocol.String("malformed-command") {
			continue
		}
		msg := fmt.Sprint(d.Message)
		q, _, _ := strings.Cut(strings.TrimPrefix(msg, "## Commands line "), " has no colon")
		line, err := strconv.Unquote(q)
		if err != nil {
			line = "unreadable message: " + msg
		}
		out = append(out, line)
	}
	return out
}

// checkedIn are the lines the check quoted in the publish p.
func checkedIn(p lsptest.Published) []string { return checked(p.Params.Diagnostics) }

// linesOf are the lines a check of probeHead+text quotes: its lines split
// at \n alone (as pi-charter reads ## Commands; a lone \r stays inside its
// line), trimmed, blank ones left out.
func linesOf(text string) []string {
	out := []string{}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.Trim(l, " \t\r"); l != "" {
			out = append(out, l)
		}
	}
	return out
}
