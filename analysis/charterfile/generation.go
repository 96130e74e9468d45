package charterfile

import (
	"context"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Parse reads src with the parser of generation g.
func Parse(g Generation, src []byte) *Charter {
	c, _ := ParseContext(context.Background(), g, src)
	return c
}

// ParseContext is Parse that stops, returning ctx's error, when ctx is done.
func ParseContext(ctx context.Context, g Generation, src []byte) (*Charter, error) {
	switch g {
	case FI14, FI15:
		return parseFI(ctx, src, g)
	case PH:
		return ParsePhases(src), ctx.Err()
	}
	return ParseObjective(src), ctx.Err()
}

// Shape says which grammar charter.md is written in, from the text alone
// (comments stripped, as every parser strips them):
//   - a level-1 "# Objective" is the Objective grammar: PH when there is
//     a "## Phases" heading (or one like "### Phases", "## Phase plan"),
//     else OBJ;
//   - otherwise criteria grammar ("### C<n>." headings, "## Criteria", or
//     Status:/Evidence: lines) is file-interface: FI15 when a Status line or
//     a "## References" section is present, FI14 when only Evidence lines are;
//   - otherwise "## Phases" is PH, and anything else OBJ, the current one.
func Shape(src []byte) Generation {
	return shapeOf(newText(src)).gen
}

// shape is what Shape found, with the line that showed it.
type shape struct {
	gen Generation
	// marker is the stripped line that decided the family, or -1.
	marker int
}

func shapeOf(t *text) shape {
	l1Objective, phases, criteria := -1, -1, -1
	// phasesLike is a heading that names phases in another shape (### Phases,
	// ## Phase plan): the author wrote for the phases grammar.
	phasesLike := -1
	status, evidence, references := false, false, false
	for i := 0; i < t.n(); i++ {
		l := t.line(i)
		if lv, s, e, ok := heading(l); ok {
			switch {
			case lv == 1 && lowerIs(l[s:e], "objective") && l1Objective < 0:
				l1Objective = i
			case lv == 2 && lowerIs(l[s:e], "phases") && phases < 0:
				phases = i
			case lv == 2 && lowerIs(l[s:e], "criteria") && criteria < 0:
				criteria = i
			case lv == 2 && lowerIs(l[s:e], "references"):
				references = true
			case lv >= 2 && lv <= 4 && namesPhases(l[s:e]) && phasesLike < 0:
				phasesLike = i
			}
		}
		if _, _, _, _, ok := criterionHeading(l); ok && criteria < 0 {
			criteria = i
		}
		if labelPrefix(l, "Status") {
			status = true
			if criteria < 0 {
				criteria = i
			}
		}
		if labelPrefix(l, "Evidence") {
			evidence = true
			if criteria < 0 {
				criteria = i
			}
		}
	}
	switch {
	case l1Objective >= 0 && (phases >= 0 || phasesLike >= 0):
		return shape{PH, l1Objective}
	case l1Objective >= 0:
		return shape{OBJ, l1Objective}
	case criteria >= 0 && (status || references || !evidence):
		return shape{FI15, criteria}
	case criteria >= 0:
		return shape{FI14, criteria}
	case phases >= 0:
		return shape{PH, phases}
	}
	return shape{OBJ, -1}
}

// labelPrefix reports whether l starts with "Label:" in any case, whatever
// follows (a CRLF line included).
func labelPrefix(l, label string) bool {
	return len(l) > len(label) && hasPrefixFold(l, label) && l[len(label)] == ':'
}

// Detect decides the generation of a .charters/ charter: state.json's
// schemaVersion chooses the family upstream reads it with
// ("file-interface" or "phases"), the file's shape the grammar within it.
// Without a valid declaration the shape decides alone. mismatch reports a
// file written in the other family's grammar; it is then read as the
// declaration says, as upstream would.
func Detect(schemaVersion string, src []byte) (g Generation, mismatch bool) {
	sh := Shape(src)
	switch schemaVersion {
	case SchemaFileInterface:
		if sh.FileInterface() {
			return sh, false
		}
		return FI15, true
	case SchemaPhases:
		if !sh.FileInterface() {
			return sh, false
		}
		return OBJ, true
	}
	return sh, false
}

// ShapeMarker is the span of the line that showed src's grammar family
// (the Objective heading, or the first criteria grammar), for diagnostics
// that point at it; the start of the file when there is none.
func ShapeMarker(src []byte) source.Span {
	t := newText(src)
	if sh := shapeOf(t); sh.marker >= 0 {
		return t.lineContentSpan(sh.marker)
	}
	return source.Span{}
}

// namesPhases reports whether a heading's text starts with the word
// "phase" or "phases" (Phase plan, Phases, phase 1: …).
func namesPhases(title string) bool {
	if len(title) < 5 || !hasPrefixFold(title, "phase") {
		return false
	}
	rest := title[5:]
	if rest != "" && (rest[0] == 's' || rest[0] == 'S') {
		rest = rest[1:]
	}
	return rest == "" || rest[0] == ' ' || rest[0] == ':' || rest[0] == '\t'
}

// ParseDeclared reads charter.md src as LoadDir does: with the grammar
// Detect chooses for a folder whose state.json holds stateSrc (nil when
// there is none, or it is not valid).
func ParseDeclared(src, stateSrc []byte) (c *Charter, mismatch bool) {
	declared := ""
	if stateSrc != nil {
		if st := ParseState(stateSrc); st.Valid {
			declared = st.SchemaVersion
		}
	}
	g, mismatch := Detect(declared, src)
	return Parse(g, src), mismatch
}
