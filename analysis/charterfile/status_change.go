package charterfile

// StatusChange is the last change of a criterion's status the journal
// records: a criterion_changed event of status.value (ADR-0014:
// evidence.status), as upstream's history reads it.
type StatusChange struct {
	TS string // the event's ts, as written
	To string // the status it set
}

// LastStatusChange returns the last status change of criterion id, and
// false when the journal records none.
func (ev *Events) LastStatusChange(id string) (StatusChange, bool) {
	if ev == nil {
		return StatusChange{}, false
	}
	for i := len(ev.History) - 1; i >= 0; i-- {
		e := &ev.History[i]
		if e.Type != "criterion_changed" || e.Str("criterion") != id {
			continue
		}
		if f := e.Str("field"); f == "status.value" || f == "evidence.status" {
			return StatusChange{TS: e.TS, To: e.Str("new")}, true
		}
	}
	return StatusChange{}, false
}
