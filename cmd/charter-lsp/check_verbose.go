package main

import (
	"io"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// writeReadings prints, for --verbose, which generation each checked file
// was read as and why: each family's one decision, as the snapshot the
// run checked holds it (workspace.Snapshot.Reading).
func (c *checkRun) writeReadings(w io.Writer) {
	snap := c.sess.Snapshot()
	var b strings.Builder
	for _, file := range c.files {
		name := c.display(file)
		if r := snap.Reading(file); r != nil {
			termtext.Fprintf(&b, "%s: read as %s\n", name, r.Title)
			for _, x := range r.Reasons {
				termtext.Fprintf(&b, "  because %s\n", x)
			}
			for _, x := range r.Conflicts {
				termtext.Fprintf(&b, "  despite %s\n", x)
			}
			termtext.Fprintf(&b, "  otherwise: %s\n", r.Otherwise)
			continue
		}
		if k := snap.File(file).Kind(); k == analysis.KindPiCharter || k == analysis.KindCriteria {
			termtext.Fprintf(&b, "%s: read as pi-charter v3 (.pi/charters/<id>/), its one generation\n", name)
		}
	}
	io.WriteString(w, b.String())
}
