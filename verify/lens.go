package verify

import "github.com/charter-lsp/charter-lsp/analysis/feature"

// Command is charter.verify for t: its title shows the command as it will
// run, and its argument carries that text, which the server compares with
// the charter before running anything (the server adds the document).
func (t *Target) Command() feature.Command {
	title := "▶ Run `" + t.Verification.Command + "`"
	if t.Verification.Weak != nil {
		title += " (weak: can pass on zero tests)"
	}
	return feature.Command{Title: title, Name: feature.CmdVerify,
		Args: map[string]any{"criterionId": t.ID, "command": t.Verification.Command}}
}

// Lens puts "▶ Run `<command>`" over the heading of each target: the
// criteria of one file that have a command to run (PiTargets,
// ChartersTargets).
func Lens(targets []*Target) []feature.Lens {
	var out []feature.Lens
	for _, t := range targets {
		out = append(out, feature.Lens{Span: t.Heading(), Command: t.Command()})
	}
	return out
}

// Actions offers "▶ Run `<command>`" for the target whose heading or body
// holds offset off.
func Actions(targets []*Target, off int) []feature.Action {
	for _, t := range targets {
		if b := t.Block(); b.Start <= off && off <= b.End {
			cmd := t.Command()
			return []feature.Action{{Title: cmd.Title, Kind: feature.KindVerify, Command: &cmd}}
		}
	}
	return nil
}
