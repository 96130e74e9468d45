package diag

import "github.com/charter-lsp/charter-lsp/analysis/source"

// Fix is a quick fix for one diagnostic: edits against the text of the
// diagnostic's file that resolve it. A check attaches a Fix only when one
// outcome is unambiguous, so the server can offer it as a code action and
// `check --fix` can apply it without asking.
type Fix struct {
	Title string // what the fix does, as a code action title ("Rename to ### Will")
	Edits []Edit // non-overlapping, against the checked text
}

// Edit replaces Span (byte offsets into the checked text) with NewText; an
// empty span inserts.
type Edit struct {
	Span    source.Span
	NewText string
}
