package lsp

import (
	"context"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/status"
)

// commandVALAt tells an editor which VAL a position of a register is in,
// and what recording evidence for it needs, so that no client parses VAL
// headings.
const commandVALAt = string(feature.CmdValAt)

// valAtArgs: the document and a position in it (a VAL's heading or body),
// or the document (any file of the charter, or its directory) and a VAL id.
type valAtArgs struct {
	URI         uri.URI            `json:"uri"`
	Position    *protocol.Position `json:"position"`
	CriterionID string             `json:"criterionId"`
}

// valAtCommand answers a status.VALAt, or null when the position is in no
// VAL of the register (or the file in no pi charter).
func (s *Server) valAtCommand(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var a valAtArgs
	if err := commandArg(commandVALAt, args, &a); err != nil {
		return nil, err
	}
	if (a.Position == nil) == (a.CriterionID == "") {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: give either a position or a criterionId with the uri", commandVALAt)
	}
	p, err := filePath(a.URI)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", commandVALAt, err)
	}
	dir := analysis.PiCharterDirAt(p)
	if dir == "" {
		return nil, nil
	}
	if !s.InWorkspace(dir) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is outside the workspace folders", commandVALAt, dir)
	}
	var view *pi.View
	id := a.CriterionID
	if a.Position != nil {
		d, ok := s.docOf(ctx, a.URI)
		if !ok {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is not open in the editor", commandVALAt, p)
		}
		if view = d.piView(); view == nil {
			return nil, ctx.Err()
		}
		c := view.Register(d.Path).At(d.offset(*a.Position))
		if c == nil {
			return nil, nil
		}
		id = c.ID
	} else if view, err = s.ws.Snapshot().PiView(ctx, dir); err != nil {
		return nil, err
	}
	if view == nil {
		return nil, ctx.Err()
	}
	if va := status.VALOf(view, id, time.Now()); va != nil {
		return va, nil
	}
	return nil, nil
}
