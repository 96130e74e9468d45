package pi

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/gitlog"
)

// unknownMessage explains an id the register lacks, naming the dropped
// heading when upstream dropped it.
func (c *checker) unknownMessage(id string) string {
	for _, dr := range c.d.Criteria.Dropped {
		src := c.d.File(c.d.CriteriaPath).Src
		if strings.EqualFold(string(src[dr.IDSpan.Start:dr.IDSpan.End]), id) {
			return fmt.Sprintf("%s matches a VAL heading that upstream drops (%s); fix that heading, or correct the id here", id, dr.Reason)
		}
	}
	return fmt.Sprintf("%s is not a criterion of %s; correct the id, or add the VAL to criteria.md", id, filepath.Base(c.d.CriteriaPath))
}

func (c *checker) checkEvidence() {
	runs := c.d.Runs
	if c.opts.Only != "" && c.d.Evidence != nil {
		// One file asked for (the workspace checks each file on its own):
		// its run alone, not a walk over every run per file.
		runs = nil
		if r := c.d.Evidence.run(c.opts.Only); r != nil {
			runs = []*EvidenceRun{r}
		}
	}
	for i, r := range runs {
		if c.stopped(i) {
			return
		}
		file := r.Path
		if c.opts.Only != "" && c.opts.Only != file {
			continue
		}
		for _, p := range r.Problems {
			c.add(file, diag.New(p.Code, p.Span, "%s", p.Message))
		}
		for i := range r.Rows {
			row := &r.Rows[i]
			for _, p := range row.SchemaProblems() {
				c.add(file, diag.New(p.Code, p.Span, "%s", p.Message))
			}
			if row.Source == SourceManual && strings.TrimSpace(row.Because) == "" {
				at := row.SourceSpan
				if row.HasBecause() {
					at = row.BecauseSpan
				}
				c.add(file, diag.New(diag.EvidenceMissingBecause, at,
					"manual evidence for %s has no because; add a \"because\" saying why this evidence is enough (upstream requires it)", row.CriterionID))
			}
			if row.CriterionID != "" && !c.v.known(row.CriterionID) {
				c.add(file, diag.New(diag.EvidenceUnknownVAL, row.IDSpan, "%s", c.unknownMessage(row.CriterionID)))
			}
		}
	}
	for _, p := range c.d.StateProblems {
		c.add(c.d.StateFile.Path, diag.New(p.Code, p.Span, "%s", p.Message))
	}
}

func (c *checker) checkCriterionState() {
	d := c.d
	if d.CriterionStateFile == nil {
		return
	}
	file := d.CriterionStateFile.Path
	for _, p := range d.CriterionStateProblems {
		c.add(file, diag.New(p.Code, p.Span, "%s", p.Message))
	}
	if d.CriterionState == nil {
		return
	}
	rows := d.Evidence.NewestTimed
	for i, e := range d.CriterionState.Entries {
		if c.stopped(i) {
			return
		}
		if !c.v.known(e.ID) {
			c.add(file, diag.New(diag.EvidenceUnknownVAL, e.KeySpan, "%s", c.unknownMessage(e.ID)))
			continue
		}
		row, has := rows[e.ID]
		t, tok := ParseTime(e.LastTs)
		switch {
		case has && (!tok || row.Time.After(t)):
			dg := diag.New(diag.CriterionStateDrift, e.KeySpan,
				"criterion-state.json records %s as %q at %s, but a newer evidence row says %q at %s; record evidence through charter_record (or update this entry) so they agree",
				e.ID, e.Outcome, e.LastTs, row.Outcome, row.TS)
			dg.Related = []diag.Related{related(row.File, row.Span, "newest evidence row")}
			c.add(file, dg)
		case has && row.Time.Equal(t) && row.Outcome != e.Outcome:
			dg := diag.New(diag.CriterionStateDrift, e.KeySpan,
				"criterion-state.json records %s as %q, but the evidence row of the same time says %q; correct whichever is wrong", e.ID, e.Outcome, row.Outcome)
			dg.Related = []diag.Related{related(row.File, row.Span, "evidence row")}
			c.add(file, dg)
		case e.LastEvidencePath != "" && !d.hasRun(filepath.ToSlash(filepath.Clean(e.LastEvidencePath))):
			at := e.KeySpan
			if m := e.Object.Get("lastEvidencePath"); m != nil {
				at = m.ValueSpan
			}
			c.add(file, diag.New(diag.CriterionStateDrift, at,
				"lastEvidencePath of %s points to %s, which does not exist; record the evidence again or fix the path", e.ID, e.LastEvidencePath))
		}
	}
	// A VAL with evidence but no criterion-state entry: upstream's status
	// reads criterion-state, so it shows the VAL as uncovered.
	for i, v := range d.Criteria.Criteria {
		if c.stopped(i) {
			return
		}
		if row, has := rows[v.ID]; has && d.CriterionState.Entry(v.ID) == nil {
			at := d.CriterionState.Object.openSpan()
			if m := d.CriterionState.Object.Get("criteria"); m != nil {
				at = m.KeySpan
			}
			dg := diag.New(diag.CriterionStateDrift, at,
				"%s has evidence (%q at %s) but no entry here, so upstream's status shows it as uncovered; record it through charter_record", v.ID, row.Outcome, row.TS)
			dg.Related = []diag.Related{related(row.File, row.Span, "evidence row")}
			c.add(file, dg)
		}
	}
}

// checkStale applies upstream's rule: a VAL with the fresh flag whose latest
// outcome is pass is stale when its time is before the newest source change
// (an unparsable time is stale); no source, nothing is stale.
func (c *checker) checkStale() {
	d := c.d
	if d.CriteriaPath == "" {
		return
	}
	stale, unjudged := c.v.Stale, c.v.Unjudged
	if len(unjudged) > 0 {
		c.add(d.CriteriaPath, freshnessUnknown(unjudged))
	}
	// The message and data of a VAL's stale diagnostic stay the same from
	// keystroke to keystroke: the views of one charter share them while
	// its evidence is unchanged (viewCarry), as long as the VAL is stale.
	carry := c.v.carry
	if carry == nil {
		carry = &viewCarry{}
	}
	carry.mu.Lock()
	defer carry.mu.Unlock()
	if carry.staleNotes == nil {
		carry.staleNotes = map[string]staleNote{}
	}
	// One slab for the related locations (the newest source change) of
	// the thousands of stale VALs a large register can have.
	var related []diag.Related
	for i, st := range stale {
		if c.stopped(i) {
			return
		}
		v := st.Criterion
		at := v.HeadingSpan()
		if !c.keep(d.CriteriaPath, diag.StaleEvidence, at) {
			continue // past the limit (2,000 stale VALs): only counted
		}
		note, ok := carry.staleNotes[v.ID]
		if !ok || !note.sourceTime.Equal(st.SourceTime) {
			note = newStaleNote(st)
			carry.staleNotes[v.ID] = note
		}
		dg := diag.Written(diag.StaleEvidence, at, note.msg)
		dg.Data = note.data
		if st.SourcePath != "" {
			if len(related) == 0 {
				related = make([]diag.Related, len(stale)-i)
			}
			related[0] = diag.Related{File: st.SourcePath, Message: "newest source change"}
			dg.Related, related = related[:1:1], related[1:]
		}
		c.put(d.CriteriaPath, dg)
	}
	// Only the stale VALs' messages are kept: the carry lives as long as
	// the evidence does, while the register may name VAL after VAL.
	if len(carry.staleNotes) > len(stale) {
		for id := range carry.staleNotes {
			if !c.v.anyStale(id) {
				delete(carry.staleNotes, id)
			}
		}
	}
}

// newStaleNote writes the message and data of st's stale-evidence
// diagnostic. They depend on the VAL's id and latest result and on the
// source time alone.
func newStaleNote(st StaleEvidence) staleNote {
	v, o := st.Criterion, st.Outcome
	var msg string
	if !o.TimeOK {
		msg = fmt.Sprintf("%s requires fresh evidence, and its latest pass has an unreadable time %q, which upstream counts as stale; record new evidence", v.ID, o.TS)
	} else {
		msg = fmt.Sprintf("%s requires fresh evidence, but its latest pass (%s) is %s older than the last source change (%s); re-verify and record new evidence",
			v.ID, o.TS, age(st.SourceTime.Sub(o.Time)), st.SourceTime.UTC().Format(time.RFC3339))
	}
	return staleNote{sourceTime: st.SourceTime, msg: msg, data: map[string]string{"evidence": o.EvidencePath}}
}

// freshnessUnknown says once, on the first VAL it concerns, why the
// freshness of passes cannot be judged, and what to do: the history of a
// shallow clone ends at a commit that git counts as adding every source
// file, so the last source change may be any time before it; or the
// history could not be read at all (Unreadable).
func freshnessUnknown(unjudged []StaleEvidence) diag.Diagnostic {
	ids := make([]string, len(unjudged))
	for i, u := range unjudged {
		ids[i] = u.Criterion.ID
	}
	first := unjudged[0]
	var why string
	switch u := first.Unread; {
	case u == nil:
		why = fmt.Sprintf("this is a shallow clone whose history ends at a commit of %s, "+
			"and the last source change may be any time before it; fetch the full history (actions/checkout: fetch-depth: 0; or git fetch --unshallow)",
			first.SourceTime.UTC().Format(time.RFC3339))
	case u.TimedOut():
		why = fmt.Sprintf("reading the git history took longer than %s (a busy machine, or a very large history), so the last source change is not known; "+
			"the editor reads it again within a minute, check on its next run; if it keeps timing out, date the sources by file times (\"freshness\": \"mtime\")", u.Timeout)
	case u.OverBudget():
		why = fmt.Sprintf("the git history is larger than charter-lsp reads (%s), so the last source change is not known; "+
			"date the sources by file times (\"freshness\": \"mtime\")", strings.TrimPrefix(u.Err.Error(), gitlog.ErrBudget.Error()+": "))
	default:
		why = fmt.Sprintf("the git history could not be read (%v), so the last source change is not known; "+
			"repair the repository (git fsck; fetch what a partial clone lacks), or date the sources by file times (\"freshness\": \"mtime\")", u.Err)
	}
	return diag.New(diag.FreshnessUnknown, first.Criterion.HeadingSpan(),
		"cannot judge whether the passes of %s are fresh: %s", strings.Join(ids, ", "), why)
}

// age renders a duration coarsely: 3 days, 5 hours, 12 minutes.
func age(dur time.Duration) string {
	switch {
	case dur >= 48*time.Hour:
		return feature.Count(int(dur/(24*time.Hour)), "day")
	case dur >= 2*time.Hour:
		return feature.Count(int(dur/time.Hour), "hour")
	case dur >= 2*time.Minute:
		return feature.Count(int(dur/time.Minute), "minute")
	}
	return feature.Count(int(dur/time.Second), "second")
}

func (c *checker) checkReport() {
	d := c.d
	if d.ReportFile == nil {
		return
	}
	file, r := d.ReportFile.Path, d.Report
	top := r.TitleSpan
	if !r.HasTitle {
		c.add(file, diag.New(diag.ReportMissingSection, top,
			"REPORT.md has no `# <title>` heading, which upstream's completion gate requires; add one on the first line"))
	}
	for _, name := range ReportSectionNames {
		s := r.Section(name)
		switch {
		case s == nil:
			c.add(file, diag.New(diag.ReportMissingSection, top,
				"REPORT.md has no `## %s` section, so upstream will not complete the charter; add the heading and write it", name))
		case !s.HasContent:
			c.add(file, diag.New(diag.ReportEmptySection, s.HeadingSpan,
				"`## %s` is empty or holds only comments, so upstream will not complete the charter; write the %s", name, strings.ToLower(name)))
		}
	}
}
