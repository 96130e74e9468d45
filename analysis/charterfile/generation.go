package charterfile

import "context"

// Parse reads src with the parser of generation g.
func Parse(g Generation, src []byte) *Charter {
	c, _ := parse(context.Background(), g, newText(src))
	return c
}

// parse reads t with the parser of generation g, or stops with ctx's error
// when ctx is done.
func parse(ctx context.Context, g Generation, t *text) (*Charter, error) {
	switch g {
	case FI14, FI15:
		return parseFI(ctx, t, g)
	case PH:
		return parsePhases(t), ctx.Err()
	}
	return parseObjective(t), ctx.Err()
}

// Read reads charter.md as LoadDir does: with the generation Decide picks
// from the folder's evidence (the text is prepared once for both).
func Read(ev Evidence) (*Charter, Era) {
	c, era, _ := ReadContext(context.Background(), ev)
	return c, era
}

// ReadContext is Read that stops, returning ctx's error, when ctx is done.
func ReadContext(ctx context.Context, ev Evidence) (*Charter, Era, error) {
	t := newText(ev.Text)
	era := decide(ev, t)
	if err := ctx.Err(); err != nil {
		return nil, Era{}, err
	}
	c, err := parse(ctx, era.Generation, t)
	if err != nil {
		return nil, Era{}, err
	}
	return c, era, nil
}
