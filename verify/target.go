package verify

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// Target is one criterion to verify, read from the charter as it is now:
// the command that verifies it, where it runs, and what its result is
// recorded in. The CLI reads it from the disk, the server from its
// snapshot; both then run it the same way.
type Target struct {
	ID           string // VAL-… or C<n>
	Dir          string // the charter folder, absolute
	Project      string // the folder the command runs in: the one holding .pi/ or .charters/
	Verification pi.Verification

	// A pi-charter VAL: the criterion (its evidence goes in a run folder).
	Criterion *pi.Criterion
	// A .charters criterion: charter.md as read in its generation, its
	// path and the text it was read from (its Status line is the record).
	Charter     *charterfile.Charter
	CharterPath string
	Text        []byte
}

// PiTarget is VAL id of the pi charter d. It refuses a VAL with nothing to
// run and a charter that is not active (its evidence could not be
// recorded: record refuses it).
func PiTarget(d *pi.Dir, id string) (*Target, error) {
	if err := piActive(d); err != nil {
		return nil, err
	}
	c := d.Criteria.Lookup(id)
	if c == nil {
		return nil, fmt.Errorf("charter %s has no VAL %s", d.ID, quoteID(id))
	}
	return piTarget(d, c)
}

// PiTargets are the VALs of d that have a command to run (the first of a
// repeated id), in register order; none when the charter is not active.
func PiTargets(d *pi.Dir) []*Target {
	if piActive(d) != nil {
		return nil
	}
	var out []*Target
	for _, c := range d.Criteria.Criteria {
		if !d.Criteria.Effective(c) {
			continue
		}
		if t, err := piTarget(d, c); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// PiTargetAt is the target of the VAL whose heading or body holds offset
// off (the first of a repeated id), or nil: the one PiTargets would have
// there, without reading every VAL's command.
func PiTargetAt(d *pi.Dir, off int) *Target {
	if piActive(d) != nil {
		return nil
	}
	c := d.Criteria.At(off)
	if !d.Criteria.Effective(c) {
		return nil
	}
	t, err := piTarget(d, c)
	if err != nil {
		return nil
	}
	return t
}

func piActive(d *pi.Dir) error {
	if d.Criteria == nil {
		return fmt.Errorf("charter %s has no register", d.ID)
	}
	if d.State != nil && d.State.Status != "" && pi.Lifecycle(d.State.Status) != pi.Active {
		return fmt.Errorf("charter %s is %s: evidence can only be recorded for an active charter (resume it first)", d.ID, d.State.Status)
	}
	return nil
}

func piTarget(d *pi.Dir, c *pi.Criterion) (*Target, error) {
	v, err := c.Verification(d.Charter)
	if err != nil {
		return nil, err
	}
	project := d.Project
	if project == "" {
		project = d.Path
	}
	return &Target{ID: c.ID, Dir: d.Path, Project: project, Verification: v, Criterion: c}, nil
}

// ChartersTarget is criterion id of the .charters/<id> folder d, its
// charter.md read in the generation charterfile.Decide picked (d.Era). It
// refuses a criterion with no Command: line and a charter whose state.json
// says it is no longer active.
func ChartersTarget(d *charterfile.Dir, id string) (*Target, error) {
	if err := chartersActive(d); err != nil {
		return nil, err
	}
	return chartersTarget(d, id)
}

// ChartersTargets are the criteria of the folder d's charter.md that have
// a command to run, in file order.
func ChartersTargets(d *charterfile.Dir) []*Target {
	if chartersActive(d) != nil {
		return nil
	}
	var out []*Target
	for _, cr := range d.Charter.Criteria {
		if t, err := chartersTarget(d, cr.ID); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// ChartersTargetAt is the target of the criterion whose block holds
// offset off, or nil: the one ChartersTargets would have there, without
// reading every criterion's command.
func ChartersTargetAt(d *charterfile.Dir, off int) *Target {
	if chartersActive(d) != nil {
		return nil
	}
	cr, _ := d.Charter.CriterionAt(off)
	if cr == nil || d.Charter.Criterion(cr.ID) != cr {
		return nil // a repeated id's block: upstream reads the first
	}
	t, err := chartersTarget(d, cr.ID)
	if err != nil {
		return nil
	}
	return t
}

func chartersActive(d *charterfile.Dir) error {
	if d.Charter == nil {
		return fmt.Errorf("%s has no %s: nothing to verify", d.Path, charterfile.CharterFile)
	}
	if !d.Era.Generation.FileInterface() {
		return fmt.Errorf("%s is read as %s, which has no criteria: nothing to verify", charterfile.CharterFile, d.Era.Generation.Title())
	}
	if st := d.State; st != nil && st.Valid && pi.Lifecycle(st.Status) != pi.Active {
		return fmt.Errorf("charter %s is %s: its criteria are not recorded any more (resume it first)", st.CharterID, st.Status)
	}
	return nil
}

func chartersTarget(d *charterfile.Dir, id string) (*Target, error) {
	v, err := d.Charter.Verification(id)
	if err != nil {
		return nil, err
	}
	return &Target{ID: id, Dir: d.Path, Project: filepath.Dir(filepath.Dir(d.Path)), Verification: v,
		Charter: d.Charter, CharterPath: d.CharterPath, Text: d.CharterSrc}, nil
}

// Heading is the span of the criterion's heading in the file it is
// written in (criteria.md, or charter.md for a legacy register or a
// .charters criterion).
func (t *Target) Heading() source.Span {
	if t.Criterion != nil {
		return t.Criterion.HeadingSpan()
	}
	if cr := t.Charter.Criterion(t.ID); cr != nil {
		return cr.HeadingSpan
	}
	return source.Span{}
}

// Block is the span of the criterion: heading and body.
func (t *Target) Block() source.Span {
	if t.Criterion != nil {
		return source.Span{Start: t.Criterion.HeadingSpan().Start, End: max(t.Criterion.HeadingSpan().End, t.Criterion.BodySpan().End)}
	}
	if cr := t.Charter.Criterion(t.ID); cr != nil {
		return cr.BlockSpan
	}
	return source.Span{}
}

// InsideFolders checks that everything the run touches lies in one of the
// folders once symbolic links are resolved: the folder it runs in and the
// charter folder it records in.
func (t *Target) InsideFolders(folders []string) error {
	for _, p := range []string{t.Project, t.Dir} {
		if !vfs.WithinAny(p, folders) {
			return fmt.Errorf("%s is outside the workspace folders", p)
		}
	}
	return nil
}

// Prompt is the question that shows the command verbatim before it runs.
func (t *Target) Prompt() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Run the command that verifies %s, in %s?\n\n%s", t.ID, t.Project, t.Verification.Command)
	if t.Verification.Key != "" {
		fmt.Fprintf(&b, "\n\n(the ## Commands entry %q of charter.md)", t.Verification.Key)
	}
	if w := t.Verification.Weak; w != nil {
		fmt.Fprintf(&b, "\n\nWarning: this command can pass without running a test: %s. The record will say so.", strings.TrimSuffix(w.Reason, "."))
	}
	return b.String()
}

func quoteID(id string) string {
	if len(id) > 80 {
		id = id[:80] + "…"
	}
	return fmt.Sprintf("%q", id)
}
