package pi

import (
	"encoding/json"
	"strings"
	"time"
)

// A new pi-charter v3 charter (.pi/charters/<id>/), as charter
// action=create scaffolds one: charter.md with the Objective, criteria.md
// for the VAL register, state.json. charter-lsp init writes one.

// NewCharter is the charter.md of a new charter named name.
func NewCharter(name, objective string) []byte {
	var b strings.Builder
	b.WriteString("# Charter: " + strings.TrimSpace(name) + "\n\n")
	b.WriteString("## Objective\n\n" + strings.TrimSpace(objective) + "\n\n")
	b.WriteString("## Scope and constraints\n\n<!-- What is in and out of scope, and the mission's boundaries. -->\n\n")
	b.WriteString("<!-- An optional ## Commands section lists build/test/dev/lint commands (`test: go test ./...`)\n")
	b.WriteString("     that verifiers quote; nothing ever runs them. -->\n")
	return []byte(b.String())
}

// NewCriteria is the criteria.md of a new charter: one milestone, no VAL
// yet, and how to write one.
func NewCriteria() []byte {
	// No line of the comment starts with "###": pi-charter reads headings
	// inside comments too.
	return []byte("# Criteria\n\n## m1 First milestone\n\n" +
		"<!-- 3 to 8 VALs per milestone, each a behaviour someone who has never seen the code can check:\n" +
		"     a heading `### VAL-AREA-001 — what holds`, then a line `Verifier: command` (or hook, prompt,\n" +
		"     manual, subagent, evidence-exists) and what the kind needs: `Command: …`, `Because: …`. -->\n")
}

// NewState is the state.json of a new charter.
func NewState(id, name, objective string, now time.Time) []byte {
	ts := now.UTC().Format("2006-01-02T15:04:05.000Z")
	v := struct {
		CharterID     string `json:"charterId"`
		SchemaVersion string `json:"schemaVersion"`
		Name          string `json:"name"`
		Objective     string `json:"objective"`
		Status        string `json:"status"`
		CreatedAt     string `json:"createdAt"`
		UpdatedAt     string `json:"updatedAt"`
	}{id, "v2", name, objective, string(Active), ts, ts}
	b, _ := json.MarshalIndent(v, "", "  ")
	return append(b, '\n')
}
