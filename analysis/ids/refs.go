package ids

import (
	"sort"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Target is one id of one charter.
type Target struct {
	Kind Kind
	ID   string
	// Dir is the charter folder whose id it is: a .pi/charters/<id> or a
	// .charters/<id> directory.
	Dir string
}

// Role says what an occurrence of an id is.
type Role string

const (
	// RoleDefinition is the heading that declares the id.
	RoleDefinition Role = "definition"
	// RoleDepends is an id on a Depends: line.
	RoleDepends Role = "depends"
	// RoleState is the id in a sidecar that mirrors the register:
	// criterion-state.json (a key, a lastFeatureId), state.json's
	// criteriaSnapshot.
	RoleState Role = "state"
	// RoleMention is the id written in prose: criteria.md's bodies,
	// charter.md, REPORT.md.
	RoleMention Role = "mention"
	// RoleEvidence is the id in a recorded evidence run: a row's
	// criterionId or featureId, a narrative beside it.
	RoleEvidence Role = "evidence"
	// RoleEvent is the id in the charter's journal (events.jsonl).
	RoleEvent Role = "event"
	// RoleCite is the id cited in the project's code or tests.
	RoleCite Role = "cite"
)

// History reports whether the role is recorded history: evidence runs and
// the journal say what happened under the old id, and change only when the
// user confirms it.
func (r Role) History() bool { return r == RoleEvidence || r == RoleEvent }

// Ref is one place an id occurs.
type Ref struct {
	Path  string       // absolute
	Span  source.Span  // the bytes a rename replaces
	Range source.Range // Span in LSP positions
	Role  Role
	// Quoted: Span is a whole JSON string literal that spells the id with
	// escapes ("VAL\u002DA"); a rename rewrites the literal. Otherwise
	// Span holds the id's own bytes, in a JSON string or in text.
	Quoted bool
}

// sortRefs orders refs by file, then position, and drops repeats (a
// heading's id found by the parse and by the text scan).
func sortRefs(refs []Ref) []Ref {
	sort.SliceStable(refs, func(i, j int) bool {
		if refs[i].Path != refs[j].Path {
			return refs[i].Path < refs[j].Path
		}
		return refs[i].Span.Start < refs[j].Span.Start
	})
	out := refs[:0]
	for i, r := range refs {
		if i > 0 && r.Path == out[len(out)-1].Path && r.Span == out[len(out)-1].Span {
			continue
		}
		out = append(out, r)
	}
	return out
}

// refsIn are the refs of one file's text, ranges computed with its index.
type refsIn struct {
	path string
	ix   *source.Index
	out  *[]Ref
}

func (f refsIn) add(sp source.Span, role Role, quoted bool) {
	*f.out = append(*f.out, Ref{Path: f.path, Span: sp, Range: f.ix.Range(sp), Role: role, Quoted: quoted})
}
