package rp1

import (
	"fmt"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
)

// Actions move a skeleton charter's interview forward at off: ask the
// question of the first gap (and of the gap under the cursor, when that is
// another one), each a charter.interview.region command; and set
// **Status** to what the gaps call for when it disagrees, unless the
// request's diagnostics (diagnosed, their codes) hold the one whose quick
// fix does the same. A scratch-pad charter's actions are the interview's
// steps.
func Actions(ch *Charter, off int, diagnosed []diag.Code) []feature.Action {
	sk := ch.Skeleton
	if ch.Format != FormatSkeleton || sk == nil {
		return nil
	}
	var out []feature.Action
	ask := func(title string, id RegionID) {
		cmd := feature.Command{Title: title, Name: feature.CmdInterviewRegion, OnVersion: true}
		if id != "" {
			cmd.Args = map[string]any{"region": string(id)}
		}
		out = append(out, feature.Action{Title: title, Kind: feature.KindInterview, Command: &cmd})
	}
	gaps := sk.Gaps()
	if len(gaps) > 0 {
		ask(fmt.Sprintf("Answer the next question: %s", gaps[0]), "")
	}
	for _, r := range sk.Regions {
		if r.Heading != nil && r.Gap() && r.ID != gaps[0] && off >= r.Heading.Span.Start && off <= r.Body.End {
			ask(fmt.Sprintf("Answer the question for %s", r.ID), r.ID)
		}
	}
	if fix := ch.StatusFix(); fix != nil && len(fix.Edits) > 0 && !statusDiagnosed(diagnosed) {
		title := fmt.Sprintf("Set **Status**: %s (what the gaps call for)", sk.ExpectedStatus())
		out = append(out, feature.Action{Title: title, Kind: feature.KindInterview, Fix: &diag.Fix{Title: title, Edits: fix.Edits}})
	}
	return out
}

// statusDiagnosed: a **Status** diagnostic is among codes; its quick fix
// already sets it.
func statusDiagnosed(codes []diag.Code) bool {
	for _, c := range codes {
		if c == diag.StatusMismatch || c == diag.StatusNoncanonical {
			return true
		}
	}
	return false
}

// MigrateTitle is the title of the action MigrateAction makes.
const MigrateTitle = "Migrate to rp1's skeleton charter (answers into their regions)"

// Migratable: ch is a charter of the scratch-pad era that MigrateAction
// rewrites, read from the parse alone: what an editor offers the
// migration on before making it. The rewrite always writes the skeleton's
// regions, so it changes such a charter; MigrateAction is nil if not.
func Migratable(ch *Charter) bool {
	return ch.Format == FormatScratchPad && holdsCharter(ch)
}

// MigrateAction rewrites a scratch-pad era charter (text) in place in
// rp1's skeleton format (Migrate), the answers placed in their regions,
// asking the user first; nil for a charter that needs no migration. A
// skeleton charter with a scratch pad left in it gets this from its
// legacy-scratch-pad quick fix.
func MigrateAction(ch *Charter, now time.Time) *feature.Action {
	if !Migratable(ch) {
		return nil
	}
	m, err := migrate(ch, MigrateOptions{Now: now})
	if err != nil || !m.Changed() {
		return nil
	}
	e := m.Edit()
	return &feature.Action{Title: MigrateTitle, Kind: feature.KindMigrate, Fix: &diag.Fix{Title: MigrateTitle, Edits: []diag.Edit{e}},
		Confirm: &feature.Confirm{Label: "Rewrite the charter in rp1's skeleton format", Notes: m.Notes()}}
}
