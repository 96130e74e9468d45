package ids

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Use is the id under the cursor and every place it occurs: what
// references list and a rename edits.
type Use struct {
	Target Target
	Span   source.Span // the cursor's occurrence, in the document
	Refs   []Ref
	// Charters are the charter folders of the id: one, except for a VAL
	// cited in code that several charters of the project define.
	Charters []string
	// Taken says why an id cannot be the new name, Blocked why the id
	// cannot be renamed at all (CheckName).
	Taken   func(kind Kind, id string) string
	Blocked string
}

// Check refuses newID as the new name of the use's id (CheckName).
func (u *Use) Check(newID string) error { return CheckName(u.Target, newID, u.Blocked, u.Taken) }

// CitesOf gives the VAL ids a project's code and tests cite, by id
// (WalkCode, CitesIn; the workspace memoizes them per project).
type CitesOf func(project string) (map[string][]Ref, error)

// UsePi is the id at byte offset off of the file at path (text src) of the
// pi charter directory d, with every place it occurs: d's files and, for a
// VAL, the project's code and tests. Nil when no id is there.
func UsePi(ctx context.Context, fsys vfs.FS, d *pi.Dir, path string, src []byte, off int, cites CitesOf) (*Use, error) {
	t, span, ok := AtPi(d, path, src, off)
	if !ok {
		return nil, nil
	}
	refs, err := piRefs(ctx, fsys, d, t, cites)
	return &Use{Target: t, Span: span, Refs: refs, Charters: []string{t.Dir}, Blocked: BlockedInPi(d, t),
		Taken: func(k Kind, id string) string { return TakenInPi(d, k, id) }}, err
}

// UseCharters is the criterion id at byte offset off of a file (text src)
// of the .charters/<id> folder d, with every place it occurs in the
// folder. Nil when no id is there.
func UseCharters(fsys vfs.FS, d *charterfile.Dir, src []byte, off int) *Use {
	t, span, ok := AtCharters(d.Path, src, off)
	if !ok {
		return nil
	}
	return &Use{Target: t, Span: span, Refs: InCharters(fsys, d, t.ID), Charters: []string{d.Path},
		Taken: func(_ Kind, id string) string { return TakenInCharters(d, id) }}
}

// UseCode is the VAL id at byte offset off of the code file at path (text
// src), with every place it occurs in the charters of the project holding
// path that define it (charters lists the workspace's pi charters; it is
// asked only when a VAL id is under the cursor) and in the project's code.
// Nil when no id is there, or no charter of the project defines it.
func UseCode(ctx context.Context, fsys vfs.FS, path string, src []byte, off int, charters func() ([]*pi.Dir, error), cites CitesOf) (*Use, error) {
	t, span, ok := AtCode(src, off)
	if !ok {
		return nil, nil
	}
	dirs, err := charters()
	if err != nil {
		return nil, err
	}
	use := &Use{Target: t, Span: span}
	for _, d := range dirs {
		if d.Project == "" || !vfs.Below(d.Project, path) || d.Criteria == nil || d.Criteria.Lookup(t.ID) == nil {
			continue
		}
		ct := Target{Kind: VAL, ID: t.ID, Dir: d.Path}
		refs, err := piRefs(ctx, fsys, d, ct, cites)
		if err != nil {
			return nil, err
		}
		use.Target, use.Charters = ct, append(use.Charters, d.Path)
		use.Refs = append(use.Refs, refs...)
		use.Taken = func(k Kind, id string) string { return TakenInPi(d, k, id) }
		use.Blocked = BlockedInPi(d, ct)
	}
	switch len(use.Charters) {
	case 0:
		return nil, nil
	case 1:
		return use, nil
	}
	use.Refs = dedupe(use.Refs) // the project's cites, once per charter
	use.Taken = func(Kind, string) string {
		return fmt.Sprintf("%d charters of this project define %s (%s); rename it from the criteria.md of the one you mean",
			len(use.Charters), t.ID, charterNames(use.Charters))
	}
	return use, nil
}

// piRefs are the places of a pi charter's id: its charter's files, and for
// a VAL the project's code and tests.
func piRefs(ctx context.Context, fsys vfs.FS, d *pi.Dir, t Target, cites CitesOf) ([]Ref, error) {
	refs, err := InPi(ctx, fsys, d, t)
	if err != nil || t.Kind != VAL || d.Project == "" {
		return refs, err
	}
	c, err := cites(d.Project)
	return append(refs, c[t.ID]...), err
}

func dedupe(refs []Ref) []Ref {
	type key struct {
		path string
		span source.Span
	}
	seen := map[key]bool{}
	out := refs[:0]
	for _, r := range refs {
		if k := (key{r.Path, r.Span}); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// charterNames names charter folders by their ids.
func charterNames(dirs []string) string {
	names := make([]string, len(dirs))
	for i, dir := range dirs {
		names[i] = filepath.Base(dir)
	}
	return strings.Join(names, ", ")
}
