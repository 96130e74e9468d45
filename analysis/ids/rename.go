package ids

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
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

// NoID is what a rename answers where the cursor is on no id.
const NoID = "No charter id here: rename works on a VAL id, a milestone id or a C<n> criterion id"

// HistoryLabel names the edits of recorded history (evidence runs, the
// journal), which the editor asks the user to confirm.
const HistoryLabel = "Rename in recorded evidence (history)"

// SplitHistory separates the edits of recorded history from the others.
func SplitHistory(edits []Edit) (kept, history []Edit) {
	for _, e := range edits {
		if e.History {
			history = append(history, e)
		} else {
			kept = append(kept, e)
		}
	}
	return kept, history
}

// HistoryNote says what confirming the n history edits of renaming the
// use's id to newID does, and what leaving them out does.
func (u *Use) HistoryNote(n int, newID string) string {
	return fmt.Sprintf("%s is named in %s of the recorded evidence of %s (evidence runs, their narratives, the journal). "+
		"Confirm to rename it there too, so its history follows it to %s; leave them out to keep the history as it was recorded.",
		u.Target.ID, feature.Count(n, "place"), charterNames(u.Charters), newID)
}

// HistoryLeftNote says that renaming the use's id to newID leaves history
// (its edits, left out) alone, for an editor that cannot ask first.
func (u *Use) HistoryLeftNote(newID string, history []Edit) string {
	return fmt.Sprintf("Renaming %s to %s leaves its recorded evidence alone (%s in %s): your editor cannot ask before changing recorded history, so the evidence keeps the id %s.",
		u.Target.ID, newID, feature.Count(len(history), "place"), filesOf(history), u.Target.ID)
}

// filesOf names the files of edits, by folder and base name, once each,
// at most three.
func filesOf(edits []Edit) string {
	seen := map[string]bool{}
	var names []string
	for _, e := range edits {
		if !seen[e.Path] {
			seen[e.Path] = true
			names = append(names, filepath.Base(filepath.Dir(e.Path))+"/"+filepath.Base(e.Path))
		}
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more files", len(names)-3)
	}
	return strings.Join(names, ", ")
}
