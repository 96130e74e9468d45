package lsp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/interview"
)

// cmdInterviewRegion is the interview of an rp1 skeleton charter, whose
// only state is the charter itself (no scratch pad): the question is asked
// in the editor and the answer written into its region.
//
// Without "answer", the command asks about the region (the first gap, or
// "region"): it shows the question (window/showMessage) and selects the
// region's _TBD_ (window/showDocument), adding the heading or the
// placeholder first when the region has none, so the user types the answer
// in place. With "answer" (an editor that can prompt for text sends it),
// it writes the answer into the region and sets **Status** to what the
// gaps then call for. Either way it returns the interview's state after
// the step: the region to ask next and its question, the gaps, the status.
const cmdInterviewRegion = string(feature.CmdInterviewRegion)

// regionArgs are the command's argument.
type regionArgs struct {
	URI     uri.URI `json:"uri"`
	Version *int32  `json:"version,omitempty"`
	// Region is the region to ask about or answer ("Vision", "Scope
	// Guardrails / Won't"); empty: the first gap.
	Region rp1.RegionID `json:"region,omitempty"`
	// Answer, when set, is written into the region.
	Answer *string `json:"answer,omitempty"`
}

// regionResult is the interview's state after the command.
type regionResult struct {
	// Answered is the region this call wrote; Asked the one it selected
	// for an answer typed in place.
	Answered rp1.RegionID `json:"answered,omitempty"`
	Asked    rp1.RegionID `json:"asked,omitempty"`
	// Next is the first gap left and Question its question ("" when none).
	Next     rp1.RegionID   `json:"next,omitempty"`
	Question string         `json:"question,omitempty"`
	Gaps     []rp1.RegionID `json:"gaps"`
	Status   string         `json:"status"`
}

func (s *Server) interviewRegion(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var a regionArgs
	if err := commandArg(cmdInterviewRegion, args, &a); err != nil {
		return nil, err
	}
	if a.URI == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the argument has no uri", cmdInterviewRegion)
	}
	if a.Region != "" && !a.Region.Known() {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %q is not a region of rp1's charter (%s)", cmdInterviewRegion, a.Region, rp1.JoinRegions(rp1.Regions))
	}
	t, err := s.target(ctx, a.URI, a.Version)
	if err != nil {
		return nil, err
	}
	if !t.Exists {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s does not exist: create the charter first (charter-lsp interview --apply)", t.Path)
	}
	if rp1.Parse(t.Text).Format != rp1.FormatSkeleton {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s is not an rp1 skeleton charter: its interview keeps a scratch pad (charter.interview.next), or migrate it first", t.Path)
	}
	id := a.Region
	if id == "" {
		id = interview.NextRegion(t.Text).Region
	}
	if a.Answer != nil {
		if id == "" {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "no region of %s is a gap: name one to add to it", t.Path)
		}
		p, err := interview.AnswerRegion(t.Text, id, *a.Answer)
		if err != nil {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
		}
		if err := s.applyTextEdits(ctx, t, "Answer "+string(id), p.Edits); err != nil {
			return nil, err
		}
		res := regionResultOf(interview.NextRegion(interview.Apply(t.Text, p.Edits)))
		res.Answered = id
		return res, nil
	}
	if id == "" {
		res := regionResultOf(interview.NextRegion(t.Text))
		s.show(ctx, protocol.MessageTypeInfo, fmt.Sprintf("Every region of the charter is filled: **Status** should be %s.", res.Status))
		return res, nil
	}
	p, err := interview.OpenRegion(t.Text, id)
	if errors.Is(err, interview.ErrRegionFilled) {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s is already filled: edit it in place", id)
	}
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	if err := s.applyTextEdits(ctx, t, "Open "+string(id)+" for an answer", p.Edits); err != nil {
		return nil, err
	}
	after := interview.Apply(t.Text, p.Edits)
	s.show(ctx, protocol.MessageTypeInfo, fmt.Sprintf("%s: %s (type the answer in place of %s)", id, interview.RegionQuestions[id], rp1.TBDMarker))
	s.showRange(ctx, t.URI, toProtocolRange(source.NewIndex(after).Range(p.Select)))
	res := regionResultOf(interview.NextRegion(after))
	res.Asked = id
	return res, nil
}

// regionResultOf is where a skeleton charter's interview stands, on the
// wire.
func regionResultOf(st interview.SkeletonStep) *regionResult {
	gaps := st.Gaps
	if gaps == nil {
		gaps = []rp1.RegionID{}
	}
	return &regionResult{Next: st.Region, Question: st.Question, Gaps: gaps, Status: st.Status}
}

// applyTextEdits applies edits against t's text through workspace/applyEdit
// (nothing when there are none).
func (s *Server) applyTextEdits(ctx context.Context, t editTarget, label string, edits []interview.Edit) error {
	if len(edits) == 0 {
		return nil
	}
	edit, err := s.workspaceEdit(t, textEdits(source.NewIndex(t.Text), edits))
	if err != nil {
		return err
	}
	return s.applyEdit(ctx, label, edit)
}

// showRange shows u with rng selected (window/showDocument), when the
// client supports it; failing to is not an error.
func (s *Server) showRange(ctx context.Context, u uri.URI, rng protocol.Range) {
	s.mu.Lock()
	can := s.caps.showDocument
	s.mu.Unlock()
	if !can || s.client == nil {
		return
	}
	yes := true
	if _, err := s.client.ShowDocument(ctx, &protocol.ShowDocumentParams{URI: u, TakeFocus: &yes, Selection: &rng}); err != nil {
		s.log.Debug("showDocument", zap.Error(err))
	}
}
