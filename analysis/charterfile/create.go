package charterfile

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// A new charter in the current grammar (ADR-0018, FORMATS.md §2.4), as
// pi-charter's create writes one: a charter.md from its template, a
// state.json and a journal that starts with charter_created. charter-lsp
// init writes one; a migration (package migrate) writes the same
// state.json.

// NewCharter is the charter.md of a new charter: the Objective, a comment
// saying what belongs in it, and comment-only References and Scope
// sections, as upstream's template lays them out.
func NewCharter(objective string) []byte {
	var b strings.Builder
	b.WriteString("# Objective\n\n")
	b.WriteString(strings.TrimSpace(objective) + "\n\n")
	b.WriteString("<!-- Keep the whole authorized Objective here: the outcome, why it matters, and the\n")
	b.WriteString("     constraints that bound it (## Constraints and other level-2 headings stay part of it). -->\n\n")
	b.WriteString("## References\n\n<!-- Files, issues and documents the work relies on, one per line. -->\n\n")
	b.WriteString("## Scope\n\n<!-- What is in scope and what is not. -->\n")
	return []byte(b.String())
}

// NewState is the state.json of a new charter, as upstream's create writes
// it (JSON.stringify(state, null, 2) and a newline), keys in its order.
func NewState(id, objective string, now time.Time) []byte {
	ts := stamp(now)
	v := struct {
		CharterID     string `json:"charterId"`
		SchemaVersion string `json:"schemaVersion"`
		Objective     string `json:"objective"`
		Status        string `json:"status"`
		CreatedAt     string `json:"createdAt"`
		UpdatedAt     string `json:"updatedAt"`
	}{id, SchemaPhases, objective, string(pi.Active), ts, ts}
	b, _ := json.MarshalIndent(v, "", "  ")
	return append(b, '\n')
}

// NewEvents is the events.jsonl of a new charter: its charter_created
// event.
func NewEvents(id, objective string, now time.Time) []byte {
	v := struct {
		Type      string `json:"type"`
		TS        string `json:"ts"`
		CharterID string `json:"charterId"`
		Objective string `json:"objective"`
	}{"charter_created", stamp(now), id, objective}
	b, _ := json.Marshal(v)
	return append(b, '\n')
}

// stamp is a time as JavaScript's toISOString writes it.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
