package ids

import (
	"fmt"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Edit replaces one occurrence of an id.
type Edit struct {
	Path    string
	Span    source.Span
	Range   source.Range
	NewText string
	// History: the edit changes recorded history (an evidence run, the
	// journal), which needs the user's confirmation.
	History bool
}

// Refused is a rename that cannot be made, and why.
type Refused struct{ Reason string }

func (e *Refused) Error() string { return e.Reason }

// CheckName refuses newID as the new name of t when it has the wrong shape
// for t's kind, is t's own id, or taken says another id of the charter (or
// its history) already uses it. blocked, when not "", says why t cannot be
// renamed at all.
func CheckName(t Target, newID, blocked string, taken func(kind Kind, id string) string) error {
	switch {
	case blocked != "":
		return &Refused{fmt.Sprintf("cannot rename %s: %s", t.ID, blocked)}
	case newID == t.ID:
		return &Refused{fmt.Sprintf("%s is already called %s", t.ID, newID)}
	case !Valid(t.Kind, newID):
		return &Refused{fmt.Sprintf("%q is not a %s id: use %s", newID, t.Kind, shape(t.Kind))}
	}
	if why := taken(t.Kind, newID); why != "" {
		return &Refused{fmt.Sprintf("cannot rename %s to %s: %s", t.ID, newID, why)}
	}
	return nil
}

// Edits are the edits that rename every ref to newID: the id's bytes
// replaced, or a JSON literal that spelled it with escapes rewritten.
func Edits(refs []Ref, newID string) []Edit {
	out := make([]Edit, 0, len(refs))
	for _, r := range refs {
		text := newID
		if r.Quoted {
			text = jsonLiteral(newID)
		}
		out = append(out, Edit{Path: r.Path, Span: r.Span, Range: r.Range, NewText: text, History: r.Role.History()})
	}
	return out
}
