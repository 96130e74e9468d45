package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/interview"
	"github.com/charter-lsp/charter-lsp/verify"
)

// CodeLens shows, as the file's family says it: the gaps of a skeleton
// charter (rp1.Lens) or the interview's next step on a scratch-pad one
// (interview.Lens), the progress of a .charters/ charter
// (charterfile.Lens), VAL and milestone status on pi charters (pi.Lens)
// and how often the project's code cites each VAL (ids.CitesLens),
// and "▶ Run `…`" over each criterion with a command (verify.Lens).
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	switch d.Kind {
	case analysis.KindRP1Charter:
		if d.skeleton() != nil {
			out = append(out, toProtocolLenses(d, rp1.Lens(d.RP1(), s.InWorkspaceURI(d.URI)))...)
		} else {
			opts := interview.Options{Budget: d.config().Budget(), Path: d.Path}
			out = append(out, toProtocolLenses(d, interview.Lens(d.RP1(), d.Text, opts))...)
		}
	case analysis.KindChartersCharter:
		if v := d.chartersView(); v != nil {
			out = append(out, toProtocolLenses(d, charterfile.Lens(v))...)
		}
	case analysis.KindCriteria, analysis.KindPiCharter:
		if v := d.piView(); v != nil {
			out = append(out, toProtocolLenses(d, pi.Lens(v, d.Path, time.Now()))...)
			if reg := v.Register(d.Path); reg != nil && v.Dir.Project != "" {
				if cites, err := d.snap.Cites(d.ctx, v.Dir.Project); err == nil {
					out = append(out, toProtocolLenses(d, ids.CitesLens(reg, cites))...)
				}
			}
		}
	}
	out = append(out, toProtocolLenses(d, verify.Lens(s.verifyTargets(d)))...)
	return out, nil
}
