package migrate

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// FromV3 plans a current charter for the pi v3 charter d
// (.pi/charters/<id>/): the Objective and "## Scope and constraints" of
// charter.md carried over, every VAL of the register (criteria.md, or the
// legacy ## Criteria) in the Acceptance list under its milestone with its
// fields, its latest recorded outcome in the notes, and charter.md's other
// sections quoted there. The new charter goes in the project's .charters/.
func FromV3(d *pi.Dir, opts Options) (*Plan, error) {
	root, err := CheckV3(d)
	if err != nil {
		return nil, err
	}
	rel := filepath.ToSlash(filepath.Join(".pi", "charters", d.ID))
	dr := &draft{
		statusHeading: "Latest recorded outcome of each VAL when this charter was migrated (nothing reads them now):",
		reference:     fmt.Sprintf("- `%s/` — the pi-charter v3 charter this one continues (criteria.md, evidence, REPORT.md)", rel),
		migratedFrom:  fmt.Sprintf("Migrated by charter-lsp from `%s/` (pi-charter v3, VAL register).", rel),
	}
	objective := ""
	if d.State != nil {
		objective = d.State.Objective
	}
	if ch := d.Charter; ch != nil {
		dr.objective = ch.Objective
		if s := ch.Sections["scope and constraints"]; s != nil {
			dr.scope = strings.TrimSpace(s.Body)
		}
		dr.leftovers = v3Sections(ch, d.Legacy, d.CharterFile.Src)
		if ch.Title != "" {
			dr.migratedFrom = strings.TrimSuffix(dr.migratedFrom, ".") + fmt.Sprintf(", titled %q.", ch.Title)
		}
	}
	if dr.objective == "" {
		dr.objective = objective
	}
	if dr.objective == "" {
		dr.objective = "_The previous charter stated no Objective: write it here._"
	}
	latest := pi.LatestResults(d)
	src := []byte(nil)
	if f := d.File(d.CriteriaPath); f != nil {
		src = f.Src
	}
	for _, c := range d.Criteria.Criteria {
		group := ""
		if m := milestoneOf(d.Criteria, c); m != nil {
			group = m.Title
		}
		body := ""
		if src != nil && c.BodySpan().End <= len(src) && c.BodySpan().Start <= c.BodySpan().End {
			body = strings.TrimSpace(string(src[c.BodySpan().Start:c.BodySpan().End]))
		}
		it := item{id: c.ID, title: c.Title, body: body, group: group, status: "no evidence"}
		if o, ok := latest[c.ID]; ok {
			it.status, it.done = string(o.Outcome), o.Outcome == pi.Pass
			var where []string
			if o.TS != "" {
				where = append(where, o.TS)
			}
			if o.EvidencePath != "" {
				where = append(where, o.EvidencePath)
			}
			it.note = o.Summary
			if len(where) > 0 {
				it.note = strings.TrimSpace(it.note + " (" + strings.Join(where, ", ") + ")")
			}
		}
		dr.items = append(dr.items, it)
	}
	// VAL headings upstream drops (a lower-case id, a VAL under the H1) are
	// still the author's criteria: quote them. A nested one is already in
	// the body of the VAL that swallows it.
	for _, dv := range d.Criteria.Dropped {
		if dv.Reason == pi.DropNested || src == nil {
			continue
		}
		dr.leftovers = append(dr.leftovers, "VAL upstream did not read ("+string(dv.Reason)+"):\n\n"+droppedBlock(src, dv))
	}
	notes := []string{
		fmt.Sprintf("%d VALs become the ## Acceptance list inside the Objective (grouped by milestone, fields kept), their latest outcomes a checklist under ## Notes", len(dr.items)),
		fmt.Sprintf("the old folder %s/ is left as it is; upstream no longer reads .pi/charters/", rel),
	}
	if len(dr.leftovers) > 0 {
		notes = append(notes, "charter.md's other sections (QA, Readiness, Commands, …) are quoted under ## Notes")
	}
	return plan(dr, root, d.Path, "pi v3", objective, opts, notes)
}

// CheckV3 is what FromV3 checks before it reads a word of d: the error
// it would return for a folder it cannot migrate, or the .charters folder
// the new charter goes in. It reads nothing but d's fields, so an editor
// can ask it whether to offer the migration without planning one.
func CheckV3(d *pi.Dir) (root string, err error) {
	if d.Project == "" {
		return "", fmt.Errorf("%s is not in a .pi/charters/ folder", d.Path)
	}
	if d.CharterFile == nil && d.CriteriaFile == nil && d.StateFile == nil {
		return "", fmt.Errorf("%s holds none of charter.md, criteria.md, state.json: not a pi charter", d.Path)
	}
	return filepath.Join(d.Project, ".charters"), nil
}

func milestoneOf(cs *pi.Criteria, c *pi.Criterion) *pi.Milestone {
	for _, m := range cs.Milestones {
		for _, mc := range m.Criteria {
			if mc == c {
				return m
			}
		}
	}
	return nil
}

// v3Sections are charter.md's text before its first section (the title
// line aside) and its sections other than the Objective, the Scope and
// constraints and the legacy Criteria when it is the register (carried
// elsewhere), in file order, each as its heading and body.
func v3Sections(ch *pi.Charter, legacy bool, src []byte) []string {
	var secs []*pi.Section
	first := len(src)
	for key, s := range ch.Sections {
		first = min(first, s.HeadingSpan.Start)
		switch key {
		case "objective", "scope and constraints":
			continue
		case "criteria":
			if legacy {
				continue
			}
		}
		secs = append(secs, s)
	}
	sort.Slice(secs, func(i, j int) bool { return secs[i].HeadingSpan.Start < secs[j].HeadingSpan.Start })
	var out []string
	var intro []string
	title := false
	for _, l := range strings.Split(string(src[:first]), "\n") {
		if !title && strings.HasPrefix(l, "# ") {
			title = true
			continue // the title, named in the migration note
		}
		intro = append(intro, l)
	}
	if text := strings.TrimSpace(strings.Join(intro, "\n")); text != "" {
		out = append(out, text)
	}
	for _, s := range secs {
		block := "## " + s.Heading
		if body := strings.TrimSpace(s.Body); body != "" {
			block += "\n\n" + body
		}
		out = append(out, block)
	}
	return out
}

// droppedBlock is a dropped VAL's heading line and the lines after it up to
// the next heading of level 1 to 3.
func droppedBlock(src []byte, dv pi.DroppedVAL) string {
	start := dv.HeadingSpan.Start
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := dv.HeadingSpan.End
	for end < len(src) {
		nl := strings.IndexByte(string(src[end:]), '\n')
		if nl < 0 {
			end = len(src)
			break
		}
		next := end + nl + 1
		line := string(src[next:])
		if strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "### ") {
			end = next
			break
		}
		end = next
	}
	return strings.TrimSpace(string(src[start:end]))
}
