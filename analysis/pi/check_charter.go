package pi

import (
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

func (c *checker) checkCharter() {
	d := c.d
	if d.Scaffold && d.Legacy {
		var what string
		switch n := len(d.Criteria.Criteria); {
		case d.Charter.Sections["criteria"] == nil:
			what = "charter.md has no ## Criteria section, so the register is empty"
		case n == 0:
			what = "charter.md's ## Criteria section holds no VAL, so the register is empty"
		default:
			what = fmt.Sprintf("the register is the %s of charter.md's legacy ## Criteria section", feature.Count(n, "VAL"))
		}
		c.add(d.CriteriaFile.Path, diag.New(diag.CriteriaScaffold, d.ScaffoldSpan,
			"criteria.md is still pi-charter's untouched scaffold (its one VAL heading is VAL-EXAMPLE), so upstream ignores it and reads charter.md instead: %s; replace VAL-EXAMPLE with your own VALs", what))
	}
	if d.CharterFile == nil {
		return
	}
	file, ix := d.CharterFile.Path, d.CharterFile.Index
	for _, l := range d.Charter.Commands {
		text := string(d.CharterFile.Src[l.LineSpan.Start:l.LineSpan.End])
		switch {
		case l.Problem == "no-colon":
			c.add(file, diag.New(diag.MalformedCommand, l.LineSpan,
				"## Commands line %q has no colon, so upstream skips it; write it as `name: command`", text))
		case l.Problem == "empty-key":
			c.add(file, diag.New(diag.MalformedCommand, l.LineSpan,
				"## Commands line %q has an empty name, so upstream skips it; write it as `name: command`", text))
		case l.Problem == "line-break":
			c.add(file, diag.New(diag.MalformedCommand, l.ValueSpan,
				"the command of %q holds a line break (a carriage return without a newline), so upstream skips the line; put the command on one line", l.Key))
		case l.Malformed:
			c.add(file, diag.New(diag.MalformedCommand, l.LineSpan,
				"## Commands entry %q has no command, so upstream skips it; add the command after the colon or remove the line", l.Key))
		case l.Duplicate:
			dg := diag.New(diag.DuplicateCommand, l.KeySpan,
				"command %q is already defined on line %d; upstream keeps only the last one, so remove or rename one of them",
				l.Key, ix.Position(l.First.Start).Line+1)
			dg.Related = []diag.Related{related(file, l.First, "first definition")}
			c.add(file, dg)
		}
	}
	if s := d.Charter.Sections["criteria"]; s != nil {
		switch {
		case d.Legacy:
			c.add(file, diag.New(diag.LegacyCriteria, s.HeadingSpan,
				"upstream reads the VALs of this legacy ## Criteria section because criteria.md is %s; move them to criteria.md under ## milestone headings",
				map[bool]string{true: "missing", false: "the untouched scaffold"}[d.CriteriaDoc == nil]))
		case d.CriteriaDoc != nil:
			c.add(file, diag.New(diag.LegacyCriteria, s.HeadingSpan,
				"upstream ignores this legacy ## Criteria section because criteria.md exists; move anything still needed to criteria.md and delete the section"))
		}
	}
}
