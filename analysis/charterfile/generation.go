package charterfile

// Parse reads src with the parser of generation g.
func Parse(g Generation, src []byte) *Charter {
	switch g {
	case FI14:
		return ParseFI14(src)
	case FI15:
		return ParseFI15(src)
	case PH:
		return ParsePhases(src)
	}
	return ParseObjective(src)
}

// Read reads charter.md as LoadDir does: with the generation Decide picks
// from the folder's evidence.
func Read(ev Evidence) (*Charter, Era) {
	era := Decide(ev)
	return Parse(era.Generation, ev.Text), era
}
