package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/verify"
)

// CodeAction offers the actions for the range, each family's as data
// converted here: the interview (code_action_interview.go: interview.Actions,
// rp1.Actions), a .charters/ charter's status edits (charterfile.Actions),
// the migration to the current format (code_action_migrate.go), the fixes
// analysis found for diagnostics (code_action_fix.go), disable comments for
// diagnostics (code_action_disable.go), the pi-charter actions
// (pi.Actions), and running the criterion's command (verify.Actions).
func (s *Server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	out := []protocol.CommandOrCodeAction{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok || !isCharter(d.File) {
		return out, nil
	}
	off := d.offset(params.Range.Start)
	var actions []*protocol.CodeAction
	actions = append(actions, s.interviewActions(d, params)...)
	if d.Kind == analysis.KindChartersCharter && s.InWorkspace(d.Path) {
		if v := d.chartersView(); v != nil {
			actions = append(actions, s.toProtocolActions(d, charterfile.Actions(v, off))...)
		}
	}
	actions = append(actions, s.migrateActions(d)...)
	actions = append(actions, s.fixActions(d, params.Context.Diagnostics)...)
	actions = append(actions, s.disableActions(d, params.Context.Diagnostics)...)
	if (d.Kind == analysis.KindCriteria || d.Kind == analysis.KindPiCharter) && s.InWorkspace(d.Path) {
		if v := d.piView(); v != nil {
			actions = append(actions, s.toProtocolActions(d, pi.Actions(v, d.Path, off))...)
		}
	}
	actions = append(actions, s.toProtocolActions(d, verify.Actions(s.verifyTargets(d), off))...)
	for _, a := range actions {
		if wanted(a, params.Context.Only) {
			out = append(out, a)
		}
	}
	return out, nil
}

// wanted applies the client's kind filter: a kind matches its own name and
// any name it is a prefix of ("refactor" matches "refactor.rewrite").
func wanted(a *protocol.CodeAction, only []protocol.CodeActionKind) bool {
	if len(only) == 0 || a.Kind == nil {
		return true
	}
	for _, k := range only {
		if *a.Kind == k || strings.HasPrefix(string(*a.Kind), string(k)+".") {
			return true
		}
	}
	return false
}

// actionKind returns a pointer for CodeAction.Kind.
func actionKind(k protocol.CodeActionKind) *protocol.CodeActionKind { return &k }
