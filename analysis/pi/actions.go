package pi

import "github.com/charter-lsp/charter-lsp/analysis/feature"

// Actions offer, on a VAL of the register the file at path holds, "Record
// evidence: pass / fail / partial" for it: each a command, so the record is
// written when the user picks it.
func Actions(v *View, path string, off int) []feature.Action {
	c := v.Register(path).At(off)
	if c == nil || v.Criterion(c.ID) == nil {
		return nil
	}
	var out []feature.Action
	for _, o := range Outcomes {
		title := "Record evidence: " + string(o)
		cmd := RecordCommand(title, c.ID, o)
		out = append(out, feature.Action{Title: title, Kind: feature.KindRecordEvidence, Command: &cmd})
	}
	return out
}
