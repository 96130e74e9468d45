package status

import (
	"fmt"
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// drift fills uncovered, stale, readyNext, sidecarDrift and milestoneArtifacts.
func (c *computer) drift() {
	st, d := c.st, c.d
	uncovered := map[string]bool{}
	for i := range st.Criteria {
		v := &st.Criteria[i]
		switch {
		case v.Outcome == "":
			st.Drift.Uncovered = append(st.Drift.Uncovered, Uncovered{v.CriterionID, "no-evidence"})
			uncovered[v.CriterionID] = true
		case v.Outcome != pi.Pass:
			st.Drift.Uncovered = append(st.Drift.Uncovered, Uncovered{v.CriterionID, "non-pass"})
			uncovered[v.CriterionID] = true
		default:
			se, ok := c.view.StaleOf(d.Criteria.Criteria[i]) // st.Criteria is the register, block for block
			if !ok {
				continue
			}
			s := Stale{CriterionID: v.CriterionID, Reason: "src-change", LastTs: v.LastTs, SourceChangedAt: isoTime(se.SourceTime)}
			if se.Outcome.TimeOK {
				s.AgeMs = se.SourceTime.Sub(se.Outcome.Time).Milliseconds()
			}
			v.Stale = true
			st.Drift.Stale = append(st.Drift.Stale, s)
		}
	}

	// readyNext: first uncovered VAL in milestone order, else in register order.
	if len(d.Criteria.Milestones) > 0 {
	milestones:
		for _, m := range d.Criteria.Milestones {
			for _, id := range m.CriterionIDs() {
				if uncovered[id] {
					st.Drift.ReadyNext = append(st.Drift.ReadyNext, ReadyNext{id, m.ID})
					break milestones
				}
			}
		}
	} else {
		for _, v := range st.Criteria {
			if uncovered[v.CriterionID] {
				st.Drift.ReadyNext = append(st.Drift.ReadyNext, ReadyNext{v.CriterionID, ""})
				break
			}
		}
	}

	c.sidecarDrift()

	// milestoneArtifacts: every VAL passes but nothing was captured under
	// work/<milestone>/evidence.
	for _, m := range st.Milestones {
		if m.MilestoneID == "" && m.Title == "" {
			continue // the pseudo-milestone of a register without milestones
		}
		if m.ValCount == 0 || m.ValPassCount < m.ValCount {
			continue
		}
		// A milestone id is heading text: never let it walk out of work/.
		captured := false
		if filepath.IsLocal(m.MilestoneID) && filepath.Base(m.MilestoneID) == m.MilestoneID {
			fi, err := c.view.FS().Stat(filepath.Join(d.Path, "work", m.MilestoneID, "evidence"))
			captured = err == nil && fi.IsDir()
		}
		if !captured {
			st.Drift.MilestoneArtifacts = append(st.Drift.MilestoneArtifacts, MilestoneArtifact{m.MilestoneID, "no-artifact-capture"})
		}
	}
}

// sidecarDrift lists the sidecars changed by something other than the tool
// since the tool last wrote them. Upstream reports every sidecar whose file
// time is later than the lastToolWriteAt it holds, but a git checkout sets
// the time of every file it writes, so on a fresh clone every sidecar read
// as edited by hand. The time only says that a change may have happened;
// the content decides whether one did (editedByHand).
func (c *computer) sidecarDrift() {
	d := c.d
	sidecars := []struct {
		name  string
		file  *pi.File
		stamp string
		check func() (reason string, known bool)
	}{
		{"state.json", d.StateFile, objStr(d.State, "lastToolWriteAt"), func() (string, bool) { return "", false }},
		{"criterion-state.json", d.CriterionStateFile, "", c.criterionStateEdit},
	}
	if d.CriterionState != nil {
		sidecars[1].stamp = d.CriterionState.LastToolWriteAt
	}
	for _, sc := range sidecars {
		if sc.file == nil {
			continue
		}
		at, ok := pi.ParseTime(sc.stamp)
		if !ok {
			continue
		}
		fi, err := c.view.FS().Stat(sc.file.Path)
		if err != nil {
			continue
		}
		// Whole milliseconds, as upstream compares mtimeMs with Date.parse.
		mt := fi.ModTime().UnixMilli()
		if mt <= at.UnixMilli() {
			continue
		}
		reason, known := sc.check()
		if !known {
			reason, known = c.changedSinceCommit(sc.file.Path)
		}
		if known && reason == "" {
			continue // the content is what the tool wrote: only the time moved
		}
		if reason == "" {
			reason = "modified after the tool's last write"
		}
		c.st.Drift.SidecarDrift = append(c.st.Drift.SidecarDrift, SidecarDrift{sc.name, sc.stamp, mt, reason})
	}
}

// criterionStateEdit compares criterion-state.json with the evidence it
// records: the tool writes each entry from the evidence row it has just
// written (outcome, lastTs, lastSummary, lastFeatureId, source, recordedBy
// and because are that row's), so an entry that disagrees with its row, or
// names a row that is not there, was changed by something else. It returns
// why, or known false when no entry's evidence file is at hand (evidence
// not committed, say) to compare with.
func (c *computer) criterionStateEdit() (reason string, known bool) {
	cs := c.d.CriterionState
	if cs == nil {
		return "", false
	}
	runs := map[string]*pi.EvidenceRun{}
	for _, r := range c.d.Runs {
		runs[r.RelPath] = r
	}
	runOf := func(e pi.CriterionStateEntry) *pi.EvidenceRun {
		if e.LastEvidencePath == "" {
			return nil
		}
		return runs[filepath.ToSlash(filepath.Clean(e.LastEvidencePath))]
	}
	for _, e := range cs.Entries {
		known = known || runOf(e) != nil
	}
	if !known {
		return "", false
	}
	for _, e := range cs.Entries {
		run := runOf(e)
		if run == nil {
			return fmt.Sprintf("%s: lastEvidencePath %q names no evidence run", e.ID, e.LastEvidencePath), true
		}
		var row *pi.EvidenceRow
		for i := range run.Rows {
			if r := &run.Rows[i]; r.CriterionID == e.ID && r.TS == e.LastTs {
				row = r
			}
		}
		if row == nil {
			return fmt.Sprintf("%s: lastTs %s matches no row of %s", e.ID, e.LastTs, e.LastEvidencePath), true
		}
		for _, f := range []struct{ name, entry, row string }{
			{"outcome", string(e.Outcome), string(row.Outcome)}, {"lastSummary", e.LastSummary, row.Summary},
			{"lastFeatureId", e.LastFeatureID, row.FeatureID}, {"source", string(e.Source), string(row.Source)},
			{"recordedBy", e.RecordedBy, row.RecordedBy}, {"because", e.Because, row.Because},
		} {
			if f.entry != f.row {
				return fmt.Sprintf("%s: %s %q, but its evidence row says %q", e.ID, f.name, f.entry, f.row), true
			}
		}
	}
	return "", true
}

// changedSinceCommit asks git whether path differs from the last commit:
// a tracked file git reports unchanged holds the committed content, and
// its file time is the checkout's. Outside a git work tree, or for a file
// git does not track, known is false.
func (c *computer) changedSinceCommit(path string) (reason string, known bool) {
	unchanged, known := pi.GitUnchanged(path)
	if !known || unchanged {
		return "", known
	}
	return "changed since the last commit, after the tool's last write", true
}

func objStr(s *pi.State, key string) string {
	if s == nil || s.Object == nil {
		return ""
	}
	return s.Object.Str(key)
}
