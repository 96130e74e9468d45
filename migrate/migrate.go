// Package migrate turns an older pi-charter charter into a new charter in
// the current grammar (ADR-0018: # Objective, ## References, ## Scope,
// everything else notes), as FORMATS.md §4 maps the generations:
//
//   - a pi v3 charter (.pi/charters/<id>/: charter.md, criteria.md with VAL
//     milestones, evidence) or a file-interface charter (.charters/<id>/,
//     ADR-0014/0015, ### C<n>. criteria) becomes a new .charters/<id>/
//     folder: the Objective, References and Scope carried over, the
//     criteria as an "## Acceptance" list inside the Objective (upstream's
//     Objective keeps other level-2 headings as content), each criterion's
//     status and note as a "## Notes" checklist, and any other text of the
//     old charter quoted in the notes;
//   - a phases charter (ADR-0016/0017) needs nothing: the current parser
//     reads it, its phases as notes.
//
// Upstream never migrates: it leaves .pi/charters/ unread and keeps
// file-interface charters as read-only history. So a migration creates a
// new charter (a new id, as upstream's create makes one; state.json with
// schemaVersion "phases"; an empty events.jsonl) and leaves the old folder
// alone. Functions here are pure: the caller lists the taken names and
// writes the Plan.
package migrate

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// ErrNothingToDo is returned for a charter the current parser already
// reads (phases, objective-only).
var ErrNothingToDo = errors.New("nothing to migrate")

// Options tune a migration.
type Options struct {
	// Now dates the new charter: its id and state.json times.
	Now time.Time
	// Taken reports whether a name already exists in the .charters folder;
	// the id gets -2, -3, … as upstream's generateCharterId does. When it
	// is nil, the folder is listed through FS (when set).
	Taken func(name string) bool
	FS    vfs.FS
}

// Plan is a new charter folder to create.
type Plan struct {
	// Root is the .charters folder the charter goes in; ID its name.
	Root string
	ID   string
	// Files in the order to write them: charter.md, state.json, events.jsonl.
	Files []File
	// From is the folder migrated, Kind what it was.
	From string
	Kind string
	// Notes say what the migration did with what, for the user.
	Notes []string
}

// File is one file of a Plan.
type File struct {
	Name    string
	Content []byte
}

// Dir is the new charter's folder.
func (p *Plan) Dir() string { return filepath.Join(p.Root, p.ID) }

// item is a criterion carried over: its acceptance entry and status note.
type item struct {
	id, title, depends, body string
	done                     bool
	status, note             string
	group                    string // a v3 milestone's title
}

// draft is what the new charter.md is built from.
type draft struct {
	objective, references, scope string
	items                        []item
	statusHeading                string   // the notes list's lead sentence
	reference                    string   // the reference line pointing at the old charter
	leftovers                    []string // other text of the old charter, as blocks
	migratedFrom                 string
}

// render writes the new charter.md.
func (d *draft) render() string {
	var b strings.Builder
	b.WriteString("# Objective\n\n")
	b.WriteString(safeSection(d.objective))
	b.WriteString("\n")
	if len(d.items) > 0 {
		b.WriteString("\n## Acceptance\n\n")
		group := ""
		for i, it := range d.items {
			if it.group != group {
				group = it.group
				if i > 0 {
					b.WriteString("\n")
				}
				if group != "" {
					fmt.Fprintf(&b, "### %s\n\n", oneLine(group))
				}
			}
			title := it.id + " " + oneLine(it.title)
			if it.depends != "" {
				title += " (after " + it.depends + ")"
			}
			body := strings.TrimSpace(it.body)
			if body != "" && !strings.Contains(body, "\n") && !codefence.Opens(body) {
				fmt.Fprintf(&b, "- %s — %s\n", title, body)
			} else {
				fmt.Fprintf(&b, "- %s\n", title)
				if body != "" {
					b.WriteString(indent(body, "  "))
					b.WriteString("\n")
				}
			}
		}
	}
	b.WriteString("\n## References\n\n")
	if r := strings.TrimSpace(d.references); r != "" {
		b.WriteString(safeSection(r))
		b.WriteString("\n")
	}
	b.WriteString(d.reference)
	b.WriteString("\n")
	if s := strings.TrimSpace(d.scope); s != "" {
		b.WriteString("\n## Scope\n\n")
		b.WriteString(safeSection(s))
		b.WriteString("\n")
	}
	b.WriteString("\n## Notes\n\n")
	b.WriteString(d.migratedFrom)
	b.WriteString("\n")
	if len(d.items) > 0 {
		fmt.Fprintf(&b, "\n%s\n\n", d.statusHeading)
		for _, it := range d.items {
			box := " "
			if it.done {
				box = "x"
			}
			line := fmt.Sprintf("- [%s] %s — %s", box, it.id, it.status)
			note := strings.TrimSpace(it.note)
			first, rest, multi := strings.Cut(note, "\n")
			if note != "" {
				line += " — " + first
			}
			b.WriteString(line + "\n")
			if multi {
				b.WriteString(indent(rest, "  "))
				b.WriteString("\n")
			}
		}
	}
	for _, block := range d.leftovers {
		b.WriteString("\n")
		b.WriteString(quote(block))
		b.WriteString("\n")
	}
	return b.String()
}

// safeSection keeps a section's text from ending the section early in the
// new grammar: a level-1 heading outside a code fence becomes level 3.
// (Headings inside fences are left alone; Verify refuses a migration they
// would break.)
func safeSection(s string) string {
	lines := strings.Split(s, "\n")
	var f codefence.Scanner
	for i, l := range lines {
		if !f.Step(l) && (strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "#\t")) {
			lines[i] = "##" + l
		}
	}
	return strings.Join(lines, "\n")
}

// indent prefixes each non-blank line of s.
func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		} else {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// quote makes s a blockquote, so its headings stay text.
func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ">"
		} else {
			lines[i] = "> " + l
		}
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// plan assembles the Plan for draft d and checks that nothing was lost.
func plan(d *draft, root, from, kind, objective string, opts Options, notes []string) (*Plan, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if opts.Taken == nil {
		names := map[string]bool{}
		if opts.FS != nil {
			if entries, err := opts.FS.ReadDir(root); err == nil {
				for _, e := range entries {
					names[e.Name()] = true
				}
			}
		}
		opts.Taken = func(name string) bool { return names[name] }
	}
	objective = strings.TrimSpace(objective)
	if objective == "" {
		objective = firstLine(d.objective)
	}
	id := charterfile.NewID(opts.Now, objective, opts.Taken)
	text := strings.ReplaceAll(d.render(), "\r", "") // the new file has LF line endings
	p := &Plan{Root: root, ID: id, From: from, Kind: kind, Notes: notes, Files: []File{
		{charterfile.CharterFile, []byte(text)},
		{charterfile.StateFile, charterfile.NewState(id, objective, opts.Now)},
		{charterfile.EventsFile, []byte{}},
	}}
	if err := Verify(d, text); err != nil {
		return nil, err
	}
	return p, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	first, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(first)
}

// Verify parses text, the new charter.md, as the current parser does and
// checks that everything d carried over can be read there: the Objective,
// References and Scope, each criterion's id, title, body, status and note,
// and the quoted text of the old charter. A migration that would lose any
// of it is refused.
func Verify(d *draft, text string) error {
	c := charterfile.ParseObjective([]byte(text))
	if !c.Objective.Found || c.Objective.Text == "" {
		return errors.New("migration refused: the new charter.md would have no Objective upstream can read")
	}
	hay := normalize(strings.Join([]string{c.Objective.Text, c.References.Text, c.Scope.Text, c.Notes}, "\n"))
	check := func(what, s string) error {
		// Comments in carried text stay in the file; upstream does not show them.
		if n := normalize(comments.ReplaceAllString(s, "\n")); n != "" && !strings.Contains(hay, n) {
			return fmt.Errorf("migration refused: %s would not be readable in the new charter (a heading inside a code fence can end a section early); nothing written: %.80q", what, s)
		}
		return nil
	}
	for _, f := range []struct{ what, s string }{{"the Objective", d.objective}, {"the References", d.references}, {"the Scope", d.scope}} {
		if err := check(f.what, f.s); err != nil {
			return err
		}
	}
	for _, it := range d.items {
		for _, f := range []struct{ what, s string }{
			{it.id + "'s title", it.id + " " + it.title}, {it.id + "'s body", it.body}, {it.id + "'s status", it.id + " — " + it.status}, {it.id + "'s note", it.note},
		} {
			if err := check(f.what, f.s); err != nil {
				return err
			}
		}
	}
	for _, l := range d.leftovers {
		if err := check("text of the old charter", l); err != nil {
			return err
		}
	}
	return nil
}

// comments are HTML comments as upstream strips them (the first "-->" closes).
var comments = regexp.MustCompile(`(?s)<!--.*?-->`)

// normalize drops what the new layout adds around carried text (list and
// quote markers, indentation, a demoted heading's extra #) and collapses
// whitespace, so carried text can be found in the parsed result.
func normalize(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		for strings.HasPrefix(l, ">") {
			l = strings.TrimSpace(l[1:])
		}
		if strings.HasPrefix(l, "### ") || strings.HasPrefix(l, "###\t") {
			l = "# " + strings.TrimSpace(l[3:])
		}
		lines[i] = l
	}
	return strings.Join(strings.Fields(strings.Join(lines, "\n")), " ")
}
