package charterfile

// Parse reads src with the parser of generation g.
func Parse(g Generation, src []byte) *Charter { return parse(g, newText(src)) }

func parse(g Generation, t *text) *Charter {
	switch g {
	case FI14, FI15:
		return parseFI(t, g)
	case PH:
		return parsePhases(t)
	}
	return parseObjective(t)
}

// Read reads charter.md as LoadDir does: with the generation Decide picks
// from the folder's evidence (the text is prepared once for both).
func Read(ev Evidence) (*Charter, Era) {
	t := newText(ev.Text)
	era := decide(ev, t)
	return parse(era.Generation, t), era
}
