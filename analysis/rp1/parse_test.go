package rp1

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestGolden parses every testdata/*.md and compares what was found (and
// the diagnostics) with the .golden file next to it. Review golden diffs
// like code: they are the expected results.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, md := range files {
		t.Run(filepath.Base(md), func(t *testing.T) {
			src, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, strings.TrimSuffix(md, ".md")+".golden", render(src))
		})
	}
}

// render is the golden text of one fixture: the parse, then Check's
// diagnostics as "diag LINE:COL-LINE:COL severity code: message".
func render(src []byte) string {
	ch := Parse(src)
	ds := Check(ch, Options{RP1Style: true})
	diag.Locate(ds, "", ch.Index)
	var b strings.Builder
	b.WriteString(dump(ch))
	for _, d := range ds {
		r := d.Range
		fmt.Fprintf(&b, "diag %d:%d-%d:%d %s %s: %s\n", r.Start.Line+1, r.Start.Character+1, r.End.Line+1, r.End.Character+1, d.Severity, d.Code, d.Message)
		for _, rel := range d.Related {
			rr := ch.Index.Range(rel.Span)
			fmt.Fprintf(&b, "  related %d:%d-%d:%d %s\n", rr.Start.Line+1, rr.Start.Character+1, rr.End.Line+1, rr.End.Character+1, rel.Message)
		}
		if d.Fix != nil {
			fmt.Fprintf(&b, "  fix %q\n", d.Fix.Title)
			for _, e := range d.Fix.Edits {
				er := ch.Index.Range(e.Span)
				// Fixes write the file's own line endings; TestCRLF compares
				// the rest.
				fmt.Fprintf(&b, "    edit %d:%d-%d:%d %q\n", er.Start.Line+1, er.Start.Character+1, er.End.Line+1, er.End.Character+1, strings.ReplaceAll(e.NewText, "\r\n", "\n"))
			}
		}
	}
	return b.String()
}
