package charterfile

import "testing"

// FuzzDecide: whatever the folder holds, Decide picks one of the four
// generations with at least one reason and something that would change
// it, Read parses in that generation, and every conflict points into a
// file the folder has.
func FuzzDecide(f *testing.F) {
	for _, c := range genEraCases(eraSeed, 24) {
		state, events := "", ""
		if c.State != nil {
			state = *c.State
		}
		if c.Events != nil {
			events = *c.Events
		}
		f.Add(c.Charter, state, events)
	}
	f.Fuzz(func(t *testing.T, charter, state, events string) {
		ev := Evidence{Text: []byte(charter)}
		if state != "" {
			ev.State = ParseState([]byte(state))
		}
		if events != "" {
			ev.Events = ParseEvents([]byte(events))
		}
		c, era := Read(ev)
		switch era.Generation {
		case FI14, FI15, PH, OBJ:
		default:
			t.Fatalf("generation %q", era.Generation)
		}
		if c.Generation != era.Generation || len(era.Reasons) == 0 || era.Otherwise == "" {
			t.Fatalf("read as %s, era %+v", c.Generation, era)
		}
		sizes := map[string]int{CharterFile: len(charter), StateFile: len(state), EventsFile: len(events)}
		for _, x := range era.Conflicts {
			if x.Message == "" || x.Span.Start < 0 || x.Span.End > sizes[x.File] || x.Span.Start > x.Span.End {
				t.Fatalf("conflict %+v", x)
			}
		}
	})
}
