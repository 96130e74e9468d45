// Package feature holds what every charter family's features answer, as
// data: a hover's markdown, a code lens, a completion item, a code action,
// a location, a workspace symbol, each with byte spans in the document the
// feature read. No protocol type appears here: the language server converts
// these (lsp/protocol_convert.go), and the CLI and tests read the same
// answers the editor gets.
//
// Each family keeps its features in files of the same names
// (analysis/rp1, analysis/pi, analysis/charterfile): hover.go, outline.go,
// lens.go, complete.go, definition.go, actions.go, beside check.go and the
// model the workspace memoizes.
package feature

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Hover is what hover shows: markdown about the text at Span.
type Hover struct {
	Span     source.Span
	Markdown string
}

// Lens is a code lens: a title shown above the line holding Span.Start,
// which runs Command when clicked (a label when Command.Name is "").
type Lens struct {
	Span    source.Span
	Command Command
}

// InlayHint is a label the editor shows inline at byte offset At: a
// criterion's latest outcome after its heading.
type InlayHint struct {
	At    int
	Label string
}

// LineEnd is where the text of the line sp spans ends: sp.End before the
// line break it may end with (an inlay hint goes there).
func LineEnd(src []byte, sp source.Span) int {
	end := sp.End
	for end > sp.Start && (src[end-1] == '\n' || src[end-1] == '\r') {
		end--
	}
	return end
}

// Label is a lens that runs nothing.
func Label(at int, title string) Lens {
	return Lens{Span: source.Span{Start: at, End: at}, Command: Command{Title: title}}
}

// Command is one of the server's commands (CommandName) as a lens or an
// action runs it. Args is its one argument object without the document:
// the server adds the document's "uri", and its "version" when OnVersion
// (the command then refuses to act on any other version).
type Command struct {
	Title     string
	Name      CommandName
	Args      map[string]any
	OnVersion bool
}

// ItemKind says what a completion item is.
type ItemKind int

const (
	// Value is one of a closed set of words: a verifier kind, a status
	// token, a phase suffix.
	Value ItemKind = iota + 1
	// Key is a field key at the start of a line ("Verifier:").
	Key
	// Reference names something declared elsewhere: a VAL id, a criterion.
	Reference
)

// CompletionItem is one completion: Insert replaces Span. Filter is what
// the editor matches the typed text against (Label when empty), Sort the
// order among the items (their order when empty).
type CompletionItem struct {
	Label  string
	Detail string
	Kind   ItemKind
	Span   source.Span
	Insert string
	Filter string
	Sort   string
}

// ActionKind is a code action's kind, as the editor groups and filters
// them: a quick fix; KindStatus records where work stands in a .charters/
// charter (a criterion's status, a phase done); KindRecordEvidence records
// evidence for a VAL; KindInterview is a step of the rp1 interview (a
// rewrite of the charter); KindMigrate migrates a charter to the current
// format; KindVerify runs a criterion's command (charter.verify).
type ActionKind string

// The code action kinds: LSP's quick fix, and ours under refactor.
const (
	QuickFix           = ActionKind("quickfix")
	KindStatus         = ActionKind("refactor.rewrite.charter.status")
	KindRecordEvidence = ActionKind("refactor.charter.recordEvidence")
	KindInterview      = ActionKind("refactor.rewrite.charter.interview")
	KindMigrate        = ActionKind("refactor.rewrite.charter.migrate")
	KindVerify         = ActionKind("refactor.charter.verify")
)

// ActionKinds lists our code action kinds with the key the editors'
// generated sources give them (an editor asks for a kind: the Run action at
// the cursor is the one of KindVerify).
var ActionKinds = []struct {
	Key  string
	Kind ActionKind
}{
	{"status", KindStatus},
	{"recordEvidence", KindRecordEvidence},
	{"interview", KindInterview},
	{"migrate", KindMigrate},
	{"verify", KindVerify},
}

// Action is a code action: an edit of the document the feature read (Fix,
// its spans in that text), new files (Create), or a command to run (the
// edit is then made when the user picks it).
type Action struct {
	Title   string
	Kind    ActionKind
	Fix     *diag.Fix
	Create  []NewFile
	Command *Command
	// Confirm, when set, asks the user before the edit is applied (an
	// editor that can shows it as a change annotation).
	Confirm *Confirm
}

// NewFile is a file an action creates, never over an existing one.
type NewFile struct {
	Path    string
	Content []byte
}

// Confirm is what the user confirms: a label and what the edit does.
type Confirm struct {
	Label string
	Notes []string
}

// Location is a place to go: a file and a span of its text as the
// snapshot holds it (the zero span: the file's start).
type Location struct {
	Path string
	Span source.Span
}

// DocumentLink is a path written in a document (Span) that leads to the
// file at Target; Tooltip says which.
type DocumentLink struct {
	Span    source.Span
	Target  string
	Tooltip string
}

// Symbol is a workspace symbol: a named thing of some charter, where it is
// and what holds it.
type Symbol struct {
	Name      string
	Container string
	Location  Location
}

// Matches says whether a workspace symbol query matches a symbol's
// lower-cased name (id and title): a substring of it, else the query's
// runes in order in the id alone ("vs1" finds VAL-SESS-001). Fuzzy over
// titles would match nearly everything.
func Matches(name, query string) bool {
	if query == "" || strings.Contains(name, query) {
		return true
	}
	id, _, _ := strings.Cut(name, " ")
	for _, r := range query {
		if unicode.IsSpace(r) {
			continue
		}
		i := strings.IndexRune(id, r)
		if i < 0 {
			return false
		}
		id = id[i+utf8.RuneLen(r):]
	}
	return true
}
