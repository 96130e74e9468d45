package record

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/internal/textdist"
)

// Entry is one evidence record to write, as in charter_record's entries[].
type Entry struct {
	CriterionID string
	Outcome     string // pass, fail or partial
	Summary     string
	Because     string // required when Source is manual
	Source      string // manual (the default, as upstream), verifier or subagent
	RecordedBy  string // agent:root (the default, as upstream), user, subagent:<agent>:<session>
	Artifacts   []string
	Details     map[string]any
	FeatureID   string // "" records under work/_charter/
	// Attach are files written into the entry's new run folder beside
	// evidence.json (a verifier's output, say), each listed in artifacts by
	// its path from the charter folder.
	Attach []Attachment
}

// Attachment is a file recorded with an entry: a plain file name (letters,
// digits, '.', '_', '-'; not evidence.json) and its content.
type Attachment struct {
	Name    string
	Content []byte
}

// Outcomes, sources and the default writer, as upstream names them.
var (
	outcomes = pi.Names(pi.Outcomes)
	sources  = pi.Names(pi.Sources)
)

const (
	defaultSource     = string(pi.SourceManual)
	defaultRecordedBy = "agent:root"
	charterSegment    = "_charter"
)

func oneOf(s string, set []string) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}

// An EntryError is a problem with one entry. Field names the entry's field
// at fault (criterionId, outcome, summary, because, source, featureId), so
// a caller can name its own flag or parameter, and Msg says what is wrong
// without the entry prefix.
type EntryError struct {
	Index       int
	CriterionID string // as given; "" when missing
	Field       string
	Msg         string
}

func (e *EntryError) Error() string {
	if e.CriterionID == "" || e.Field == "criterionId" {
		return fmt.Sprintf("entry %d: %s", e.Index, e.Msg)
	}
	return fmt.Sprintf("entry %d (%s): %s", e.Index, e.CriterionID, e.Msg)
}

func entryError(i int, id, field, format string, args ...any) *EntryError {
	return &EntryError{Index: i, CriterionID: id, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// unknownCriterionError explains an id that criteria.md does not declare,
// naming the closest declared ids so a typo is easy to fix.
func unknownCriterionError(i int, id string, known []string) error {
	const field = "criterionId"
	near := nearMatches(id, known, 3)
	switch {
	case len(known) == 0:
		return entryError(i, id, field, "unknown criterion %s: criteria.md declares no VAL", quote(id))
	case len(near) > 0:
		return entryError(i, id, field, "unknown criterion %s; did you mean %s?", quote(id), strings.Join(near, ", "))
	}
	return entryError(i, id, field, "unknown criterion %s; declared: %s", quote(id), shortList(known))
}

// unknownMilestoneError explains a featureId that names no milestone.
func unknownMilestoneError(i int, id, feature string, milestones []string) error {
	const field = "featureId"
	if len(milestones) == 0 {
		return entryError(i, id, field, "feature %s is not a milestone: criteria.md has no ## milestone headings, so evidence goes under work/_charter/", quote(feature))
	}
	if near := nearMatches(feature, milestones, 3); len(near) > 0 {
		return entryError(i, id, field, "feature %s is not a milestone of criteria.md; did you mean %s?", quote(feature), strings.Join(near, ", "))
	}
	return entryError(i, id, field, "feature %s is not a milestone of criteria.md; milestones: %s", quote(feature), shortList(milestones))
}

// shortList joins up to eight items.
func shortList(xs []string) string {
	if len(xs) > 8 {
		return strings.Join(xs[:8], ", ") + ", …"
	}
	return strings.Join(xs, ", ")
}

// nearMatches returns up to n known ids within a small edit distance of id
// (case-insensitive), closest first.
func nearMatches(id string, known []string, n int) []string {
	if len(id) > 200 {
		return nil // no id is that long; comparing would only cost time
	}
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	up := strings.ToUpper(id)
	for _, k := range known {
		d := textdist.Distance(up, strings.ToUpper(k))
		if limit := max(2, len(k)/4); d <= limit {
			cs = append(cs, cand{k, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].id)
	}
	return out
}

// Placeholders a person replaces after recording from an editor: the new
// evidence file opens with one of them selected.
const (
	SummaryPlaceholder = "TODO: describe what was verified"
	BecausePlaceholder = "TODO: why this outcome is right"
)

// EditorEntry is the evidence a person records for c from an editor: the
// source its verifier implies (pi.Criterion.EvidenceSource), placeholders
// for what the person still has to say (needsBecause: the because is the
// placeholder to fill), and the milestone's run folder, as agents record
// it. The CLI builds its Entry from its flags instead.
func EditorEntry(c *pi.Criterion, outcome pi.Outcome, summary string, because *string) (e Entry, needsBecause bool) {
	e = Entry{CriterionID: c.ID, Outcome: string(outcome), Summary: summary, RecordedBy: "user", Source: string(c.EvidenceSource())}
	if e.Summary == "" {
		e.Summary = SummaryPlaceholder
	}
	if because != nil {
		e.Because = *because
	}
	if e.Source == string(pi.SourceManual) && strings.TrimSpace(e.Because) == "" {
		e.Because, needsBecause = BecausePlaceholder, true
	}
	if c.MilestoneID != "" && !strings.ContainsAny(c.MilestoneID, `/\.`) {
		e.FeatureID = c.MilestoneID
	}
	return e, needsBecause
}
