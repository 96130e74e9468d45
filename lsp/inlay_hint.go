package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// InlayHint puts a criterion's latest outcome and its age after its
// heading: a VAL's from the charter's view ("✓ pass 2h ago", the code
// lens's words), a .charters/ criterion's from its Status line and the
// journal's last change of it ("pass 3d ago", "⚠ stale pass").
func (s *Server) InlayHint(ctx context.Context, params *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	out := []protocol.InlayHint{}
	d, ok := s.docOf(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	ix := d.Index()
	want := ix.Span(fromProtocolRange(params.Range))
	now := time.Now()
	hint := func(heading source.Span, label string) {
		if heading.End < want.Start || heading.Start > want.End || label == "" {
			return
		}
		yes := true
		out = append(out, protocol.InlayHint{Position: toProtocolPosition(ix.Position(heading.End)), Label: protocol.String(label), PaddingLeft: &yes})
	}
	switch d.Kind {
	case analysis.KindCriteria, analysis.KindPiCharter:
		view := d.piView()
		if view == nil || view.Register(d.Path) == nil {
			return out, nil
		}
		for _, c := range view.Register(d.Path).Criteria {
			hint(trimEOL(d.Text, c.HeadingSpan), pi.LensTitle(view, c, now))
		}
	case analysis.KindChartersCharter:
		view := d.chartersView()
		if view == nil || view.Charter == nil {
			return out, nil
		}
		stale, events := view.Stale, view.Events
		for _, cr := range view.Charter.Criteria {
			label := string(cr.Status)
			switch {
			case stale[cr.ID]:
				label = "⚠ stale " + label
			default:
				if ch, ok := events.LastStatusChange(cr.ID); ok && ch.To == string(cr.Status) {
					if at, ok := pi.ParseTime(ch.TS); ok {
						label += " " + feature.Ago(now, at)
					}
				}
			}
			hint(trimEOL(d.Text, cr.HeadingSpan), label)
		}
	}
	return out, nil
}

// trimEOL is a heading's span without the line break it may end with.
func trimEOL(text []byte, sp source.Span) source.Span {
	for sp.End > sp.Start && (text[sp.End-1] == '\n' || text[sp.End-1] == '\r') {
		sp.End--
	}
	return sp
}
