package ids

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// narratives are the files a run may hold beside its evidence.json, besides
// the narrativePath its rows name.
var narratives = []string{"narrative.md", "review.md", "qa.md"}

// InPi lists every place the id t occurs in the pi charter directory d:
// for a VAL, its headings and the prose that names it (criteria.md,
// charter.md, REPORT.md), its criterion-state.json key, and its evidence
// runs (rows, narratives); for a milestone, its heading, the lastFeatureId
// values of criterion-state.json and its runs' featureId. Milestone ids are
// ordinary words, so prose is not searched for them; the folder
// work/<milestone>/ keeps its name. Code and tests are Cites'. fsys reads
// the runs' files (each run's evidence.json only when a row of it names the
// id). It stops with ctx's error when ctx is done.
func InPi(ctx context.Context, fsys vfs.FS, d *pi.Dir, t Target) ([]Ref, error) {
	var out []Ref
	switch t.Kind {
	case VAL:
		for _, f := range []*pi.File{d.CriteriaFile, d.CharterFile, d.ReportFile} {
			if f == nil {
				continue
			}
			in := refsIn{f.Path, f.Index, &out}
			// Headings as the parse reads them (VAL-X-001-Title is the
			// heading of VAL-X-001-T), then the prose.
			defs := map[source.Span]bool{}
			for _, reg := range registersIn(d, f) {
				for _, c := range reg.Criteria {
					if c.ID == t.ID {
						defs[c.IDSpan()] = true
						in.add(c.IDSpan(), RoleDefinition, false)
					}
				}
			}
			EachVAL(f.Src, func(id string, sp source.Span) {
				if id == t.ID && !defs[sp] {
					in.add(sp, RoleMention, false)
				}
			})
		}
		if f := d.CriterionStateFile; f != nil && d.CriterionState != nil {
			in := refsIn{f.Path, f.Index, &out}
			for _, e := range d.CriterionState.Entries {
				if sp, quoted, ok := idIn(f.Src, e.KeySpan, e.ID, t.ID); ok {
					in.add(sp, RoleState, quoted)
				}
			}
		}
	case Milestone:
		for _, f := range []*pi.File{d.CriteriaFile, d.CharterFile} {
			if f == nil {
				continue
			}
			in := refsIn{f.Path, f.Index, &out}
			for _, reg := range registersIn(d, f) {
				for _, m := range reg.Milestones {
					if m.ID == t.ID {
						in.add(m.IDSpan, RoleDefinition, false)
					}
				}
			}
		}
		if f := d.CriterionStateFile; f != nil && d.CriterionState != nil {
			in := refsIn{f.Path, f.Index, &out}
			for _, e := range d.CriterionState.Entries {
				m := e.Object.Get("lastFeatureId")
				if v, ok := m.String(); ok {
					if sp, quoted, ok := idIn(f.Src, m.ValueSpan, v, t.ID); ok {
						in.add(sp, RoleState, quoted)
					}
				}
			}
		}
	}
	runs, err := evidenceRefs(ctx, fsys, d, t)
	return sortRefs(append(out, runs...)), err
}

// registersIn are the parsed registers whose spans are offsets into f:
// criteria.md's, or charter.md's legacy ## Criteria section.
func registersIn(d *pi.Dir, f *pi.File) []*pi.Criteria {
	switch {
	case f == d.CriteriaFile && d.CriteriaDoc != nil:
		return []*pi.Criteria{d.CriteriaDoc}
	case f == d.CharterFile && d.Charter != nil && d.Charter.Criteria != nil:
		return []*pi.Criteria{d.Charter.Criteria}
	}
	return nil
}

// evidenceRefs finds the id in the runs whose rows name it: the rows'
// criterionId (a VAL) or featureId (a milestone), and a VAL in the
// narratives beside them.
func evidenceRefs(ctx context.Context, fsys vfs.FS, d *pi.Dir, t Target) ([]Ref, error) {
	var out []Ref
	for i, r := range d.Runs {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var rows []pi.EvidenceRow
		for _, row := range r.Rows {
			if t.Kind == VAL && row.CriterionID == t.ID || t.Kind == Milestone && row.FeatureID == t.ID {
				rows = append(rows, row)
			}
		}
		if len(rows) == 0 {
			continue
		}
		f, err := r.Read()
		if err != nil {
			continue // changed since it was loaded: the next load finds it
		}
		in := refsIn{f.Path, f.Index, &out}
		switch t.Kind {
		case VAL:
			for _, row := range rows {
				if sp, quoted, ok := idIn(f.Src, row.IDSpan, row.CriterionID, t.ID); ok {
					in.add(sp, RoleEvidence, quoted)
				}
			}
			out = append(out, narrativeRefs(fsys, filepath.Dir(r.Path), rows, t.ID)...)
		case Milestone:
			eachJSONString(f.Src, func(s jsonString) {
				if s.key || !(s.at("featureId") || s.at("[]", "featureId")) {
					return
				}
				if sp, quoted, ok := idIn(f.Src, s.lit, s.value, t.ID); ok {
					in.add(sp, RoleEvidence, quoted)
				}
			})
		}
	}
	return out, nil
}

// narrativeRefs finds VAL id in the markdown files beside a run's
// evidence.json: narrative.md, review.md, qa.md and the rows'
// narrativePath. Links are not followed.
func narrativeRefs(fsys vfs.FS, runDir string, rows []pi.EvidenceRow, id string) []Ref {
	names := append([]string(nil), narratives...)
	for _, row := range rows {
		if p := path.Clean(row.NarrativePath); row.NarrativePath != "" && filepath.IsLocal(filepath.FromSlash(p)) {
			names = append(names, p)
		}
	}
	regular := map[string]bool{}
	if entries, err := fsys.ReadDir(runDir); err == nil {
		for _, e := range entries {
			regular[e.Name()] = e.Type().IsRegular()
		}
	}
	var out []Ref
	seen := map[string]bool{}
	for _, name := range names {
		p := filepath.Join(runDir, filepath.FromSlash(name))
		if seen[p] || !regularFile(fsys, runDir, name, regular) {
			continue
		}
		seen[p] = true
		src, err := fsys.ReadFile(p)
		if err != nil {
			continue
		}
		ix := source.NewIndex(src)
		in := refsIn{p, ix, &out}
		EachVAL(src, func(tok string, sp source.Span) {
			if tok == id {
				in.add(sp, RoleEvidence, false)
			}
		})
	}
	return out
}

// regularFile reports whether name (slash-separated, below dir) is a
// regular file, no link on the way: a file directly in dir by its
// listing, one further down by a stat of each folder's listing.
func regularFile(fsys vfs.FS, dir, name string, listed map[string]bool) bool {
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return false
	}
	parts := splitPath(name)
	if len(parts) == 1 {
		return listed[name]
	}
	for i, part := range parts {
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return false
		}
		var found fs.DirEntry
		for _, e := range entries {
			if e.Name() == part {
				found = e
			}
		}
		switch {
		case found == nil || found.Type()&fs.ModeSymlink != 0:
			return false
		case i == len(parts)-1:
			return found.Type().IsRegular()
		case !found.IsDir():
			return false
		}
		dir = filepath.Join(dir, part)
	}
	return false
}

func splitPath(p string) []string {
	var out []string
	for p != "" && p != "." {
		dir, base := path.Split(p)
		out = append([]string{base}, out...)
		p = path.Clean(dir)
		if p == "/" {
			break
		}
	}
	return out
}

// TakenInPi says why id cannot become t's new id in d, or "": another VAL
// (or milestone) has it, or recorded evidence does — renaming onto it would
// merge two histories.
func TakenInPi(d *pi.Dir, kind Kind, id string) string {
	for _, f := range []*pi.File{d.CriteriaFile, d.CharterFile} {
		if f == nil {
			continue
		}
		for _, reg := range registersIn(d, f) {
			for _, c := range reg.Criteria {
				if kind == VAL && c.ID == id {
					return fmt.Sprintf("%s is already a VAL of this charter (%s line %d)", id, filepath.Base(f.Path), f.Index.Line(c.IDSpan().Start)+1)
				}
			}
			for _, m := range reg.Milestones {
				if kind == Milestone && m.ID == id {
					return fmt.Sprintf("%s is already a milestone of this charter (%s line %d)", id, filepath.Base(f.Path), f.Index.Line(m.IDSpan.Start)+1)
				}
			}
			for _, dr := range reg.Dropped {
				if kind == VAL && dr.IDSpan.Len() > 0 && string(f.Src[dr.IDSpan.Start:dr.IDSpan.End]) == id {
					return fmt.Sprintf("%s already heads a criterion (%s line %d) that pi-charter ignores; remove or rename that one first", id, filepath.Base(f.Path), f.Index.Line(dr.IDSpan.Start)+1)
				}
			}
		}
	}
	if kind == VAL && d.CriterionState.Entry(id) != nil {
		return fmt.Sprintf("criterion-state.json already records %s", id)
	}
	for _, r := range d.Runs {
		if kind == Milestone && r.Segment == id {
			return fmt.Sprintf("work/%s/ already holds evidence (%s); renaming onto it would merge two histories", id, r.RelPath)
		}
		for _, row := range r.Rows {
			if kind == VAL && row.CriterionID == id || kind == Milestone && row.FeatureID == id {
				return fmt.Sprintf("%s already has recorded evidence (%s); renaming onto it would merge two histories", id, r.RelPath)
			}
		}
	}
	return ""
}

// BlockedInPi says why t cannot be renamed as it stands, or "": a heading
// whose id runs into its title (VAL-X-001-Title, read as VAL-X-001-T)
// would take the new id glued to the rest of the title word.
func BlockedInPi(d *pi.Dir, t Target) string {
	if t.Kind != VAL {
		return ""
	}
	for _, f := range []*pi.File{d.CriteriaFile, d.CharterFile} {
		for _, reg := range registersIn(d, f) {
			for _, c := range reg.Criteria {
				if c.ID == t.ID && c.GreedyID {
					fix := "separate the id from the title"
					if c.IntendedID != "" {
						fix = fmt.Sprintf("write %s — and the title (the quick fix does)", c.IntendedID)
					}
					return fmt.Sprintf("the heading of %s (%s line %d) runs its id into the title, which is how pi-charter reads %s; %s, then rename it",
						t.ID, filepath.Base(f.Path), f.Index.Line(c.IDSpan().Start)+1, t.ID, fix)
				}
			}
		}
	}
	return ""
}
