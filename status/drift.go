package status

import (
	"path/filepath"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// drift fills uncovered, stale, readyNext, sidecarDrift and milestoneArtifacts.
func (c *computer) drift() {
	st, d := c.st, c.d
	stale := c.view.StaleByID
	uncovered := map[string]bool{}
	for i := range st.Criteria {
		v := &st.Criteria[i]
		switch {
		case v.Outcome == "":
			st.Drift.Uncovered = append(st.Drift.Uncovered, Uncovered{v.CriterionID, "no-evidence"})
			uncovered[v.CriterionID] = true
		case v.Outcome != "pass":
			st.Drift.Uncovered = append(st.Drift.Uncovered, Uncovered{v.CriterionID, "non-pass"})
			uncovered[v.CriterionID] = true
		default:
			se, ok := stale[v.CriterionID]
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

	// sidecarDrift: a sidecar modified after the tool's own last write.
	sidecars := []struct {
		name string
		file *pi.File
		obj  func() string
	}{
		{"state.json", d.StateFile, func() string { return objStr(d.State, "lastToolWriteAt") }},
		{"criterion-state.json", d.CriterionStateFile, func() string {
			if d.CriterionState == nil {
				return ""
			}
			return d.CriterionState.LastToolWriteAt
		}},
	}
	for _, sc := range sidecars {
		if sc.file == nil {
			continue
		}
		stamp := sc.obj()
		at, ok := pi.ParseTime(stamp)
		if !ok {
			continue
		}
		fi, err := c.view.fsys.Stat(sc.file.Path)
		if err != nil {
			continue
		}
		// Whole milliseconds, as upstream compares mtimeMs with Date.parse.
		if mt := fi.ModTime().UnixMilli(); mt > at.UnixMilli() {
			st.Drift.SidecarDrift = append(st.Drift.SidecarDrift, SidecarDrift{sc.name, stamp, mt})
		}
	}

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
			fi, err := c.view.fsys.Stat(filepath.Join(d.Path, "work", m.MilestoneID, "evidence"))
			captured = err == nil && fi.IsDir()
		}
		if !captured {
			st.Drift.MilestoneArtifacts = append(st.Drift.MilestoneArtifacts, MilestoneArtifact{m.MilestoneID, "no-artifact-capture"})
		}
	}
}

func objStr(s *pi.State, key string) string {
	if s == nil || s.Object == nil {
		return ""
	}
	return s.Object.Str(key)
}
