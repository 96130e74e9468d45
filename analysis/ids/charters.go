package ids

import (
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// ReportFile is the charter folder's report, beside charter.md in both
// charter layouts.
const ReportFile = "REPORT.md"

// InCharters lists every place the criterion id occurs in the .charters/<id>
// folder d: its heading (a duplicate's ignored block too), the Depends
// lines, the prose of charter.md and REPORT.md that names it, state.json's
// criteriaSnapshot (its id and the depends lists) and the journal's
// criterion_changed events (their criterion, and the ids a depends change
// lists). fsys reads REPORT.md.
func InCharters(fsys vfs.FS, d *charterfile.Dir, id string) []Ref {
	var out []Ref
	if c := d.Charter; c != nil && d.CharterSrc != nil {
		in := refsIn{d.CharterPath, source.NewIndex(d.CharterSrc), &out}
		known := map[source.Span]bool{}
		for _, list := range [][]*charterfile.Criterion{c.Criteria, c.Dropped} {
			for _, cr := range list {
				if cr.ID == id {
					known[cr.IDSpan] = true
					in.add(cr.IDSpan, RoleDefinition, false)
				}
			}
		}
		for _, r := range c.DependsRefs() {
			if r.ID == id {
				known[r.Span] = true
				in.add(r.Span, RoleDepends, false)
			}
		}
		EachCriterion(d.CharterSrc, func(tok string, sp source.Span) {
			if tok == id && !known[sp] {
				in.add(sp, RoleMention, false)
			}
		})
	}
	report := filepath.Join(d.Path, ReportFile)
	if src, err := fsys.ReadFile(report); err == nil {
		in := refsIn{report, source.NewIndex(src), &out}
		EachCriterion(src, func(tok string, sp source.Span) {
			if tok == id {
				in.add(sp, RoleMention, false)
			}
		})
	}
	if d.StateSrc != nil {
		// The snapshot mirrors charter.md: the id, the depends lists, and
		// the title and note that may name it.
		in := refsIn{d.StatePath, source.NewIndex(d.StateSrc), &out}
		eachJSONString(d.StateSrc, func(s jsonString) {
			mirror := s.at("criteriaSnapshot", "[]", "id") || s.at("criteriaSnapshot", "[]", "depends", "[]") ||
				s.at("criteriaSnapshot", "[]", "title") || s.at("criteriaSnapshot", "[]", "status", "note") ||
				s.at("criteriaSnapshot", "[]", "evidence", "note")
			if s.key || !mirror {
				return
			}
			spans, quoted := criterionIn(d.StateSrc, s.lit, s.value, id)
			for _, sp := range spans {
				in.add(sp, RoleState, quoted)
			}
		})
	}
	if d.Events != nil {
		// A criterion_changed event: its criterion, and the old and new
		// values (a depends list, a title or note naming the id).
		in := refsIn{d.EventsPath, source.NewIndex(d.EventsSrc), &out}
		for _, e := range d.Events.Parsed {
			if e.Type != "criterion_changed" {
				continue
			}
			line := d.EventsSrc[e.Span.Start:e.Span.End]
			eachJSONString(line, func(s jsonString) {
				value := s.at("old") || s.at("new") || s.at("old", "[]") || s.at("new", "[]")
				if s.key || !s.at("criterion") && !value {
					return
				}
				lit := s.lit.Shift(e.Span.Start)
				if s.at("criterion") {
					if sp, quoted, ok := idIn(d.EventsSrc, lit, s.value, id); ok {
						in.add(sp, RoleEvent, quoted)
					}
					return
				}
				spans, quoted := criterionIn(d.EventsSrc, lit, s.value, id)
				for _, sp := range spans {
					in.add(sp, RoleEvent, quoted)
				}
			})
		}
	}
	return sortRefs(out)
}

// TakenInCharters says why id cannot become a criterion's new id in d, or
// "": a criterion has it (an ignored duplicate too), or the snapshot or the
// journal knows it — renaming onto it would merge two histories.
func TakenInCharters(d *charterfile.Dir, id string) string {
	if c := d.Charter; c != nil {
		for _, list := range [][]*charterfile.Criterion{c.Criteria, c.Dropped} {
			for _, cr := range list {
				if cr.ID == id {
					return fmt.Sprintf("%s is already a criterion of this charter (charter.md line %d)", id, cr.Line)
				}
			}
		}
	}
	if st := d.State; st != nil {
		for _, s := range st.CriteriaSnapshot {
			if s.ID == id {
				return fmt.Sprintf("state.json's criteriaSnapshot already holds %s", id)
			}
		}
	}
	if ev := d.Events; ev != nil {
		for _, e := range ev.Parsed {
			if e.Type == "criterion_changed" && e.Str("criterion") == id {
				return fmt.Sprintf("the journal (events.jsonl line %d) already records changes of %s; renaming onto it would merge two histories", e.Line+1, id)
			}
		}
	}
	return ""
}
