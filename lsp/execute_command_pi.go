package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/record"
	"github.com/charter-lsp/charter-lsp/status"
)

// The pi-charter commands of workspace/executeCommand.
const (
	commandStatus         = string(feature.CmdStatus)
	commandRecordEvidence = string(feature.CmdRecordEvidence)
)

// statusArgs are charter.status's optional arguments.
type statusArgs struct {
	URI uri.URI `json:"uri"`
	// Render "markdown" adds the charters rendered for a person: what the
	// editors' status views show, so that no client renders a status itself.
	Render string `json:"render"`
}

// statusCommand returns a status.Report: the status of the charter holding
// the given file (or charter folder: .pi/charters/<id> or .charters/<id>),
// or of every charter of the workspace when no file is given or the file is
// in no charter (the editor was showing some other file); with render
// "markdown" also the markdown.
// A charter outside the workspace folders (an absolute URI elsewhere, a
// charter folder linked out of the workspace) is refused, not read.
func (s *Server) statusCommand(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var a statusArgs
	if len(args) > 0 {
		if err := json.Unmarshal(args[0], &a); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: arguments must be [{\"uri\": \"…\", \"render\": \"markdown\"}]: %v", commandStatus, err)
		}
	}
	if a.Render != "" && a.Render != "markdown" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: render %q: the one rendering is \"markdown\"", commandStatus, a.Render)
	}
	var dirs []string
	if a.URI != "" {
		p, err := filePath(a.URI)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", commandStatus, err)
		}
		if dir := analysis.CharterFolderAt(p); dir != "" {
			if !s.InWorkspace(dir) {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is outside the workspace folders", commandStatus, dir)
			}
			dirs = []string{dir}
		}
	}
	snap := s.ws.Snapshot()
	if dirs == nil {
		found, err := snap.Charters(ctx)
		if err != nil {
			return nil, err
		}
		dirs = append(append(dirs, found.PiCharters...), found.Charters...)
	}
	out := status.Report{Charters: []*status.Status{}}
	now := time.Now()
	for _, dir := range dirs {
		st, err := snap.Status(ctx, dir, now)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s: %v", commandStatus, dir, err)
		}
		out.Charters = append(out.Charters, st)
	}
	if a.Render == "markdown" {
		out.Markdown = status.Markdown(out.Charters)
	}
	return out, nil
}

// recordArgs are charter.recordEvidence's arguments.
type recordArgs struct {
	URI         uri.URI `json:"uri"`
	CriterionID string  `json:"criterionId"`
	Outcome     string  `json:"outcome"`
	Summary     string  `json:"summary"`
	Because     *string `json:"because"`
}

// executeRecordEvidence records evidence for one VAL as charter_record
// does — a new run directory's evidence.json and criterion-state.json —
// through the same locked, atomic path as `charter-lsp record`
// (record.Apply): an agent recording in a terminal at the same moment
// loses nothing, and neither does the editor. An edit computed against the
// file as the server last read it could be applied by the editor over a
// newer one; a write under the lock re-reads the file first. It refuses
// while criterion-state.json is open with unsaved changes (the write would
// not be what the editor shows). Then it re-checks the charter and opens
// the new evidence file with the placeholder to edit selected. Without an
// outcome it asks the user for one.
func (s *Server) recordEvidenceCommand(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var a recordArgs
	if err := commandArg(commandRecordEvidence, args, &a); err != nil {
		return nil, err
	}
	p, err := filePath(a.URI)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", commandRecordEvidence, err)
	}
	dir := analysis.PiCharterDirAt(p)
	if dir == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is not in a .pi/charters/<id> directory", commandRecordEvidence, p)
	}
	if !s.InWorkspace(dir) {
		return nil, s.refuse(ctx, "charter-lsp: not recording evidence for %s: it is outside the workspace folders", dir)
	}
	snap := s.ws.Snapshot()
	view, err := snap.PiView(ctx, dir)
	if err != nil {
		return nil, err
	}
	c := view.Criterion(a.CriterionID)
	if c == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: charter %s has no VAL %q", commandRecordEvidence, view.Dir.ID, a.CriterionID)
	}
	if a.Outcome == "" {
		if a.Outcome = s.askOutcome(ctx, c.ID); a.Outcome == "" {
			return nil, nil // the user dismissed the question
		}
	}

	entry, selectBecause := record.EditorEntry(c, pi.Outcome(a.Outcome), a.Summary, a.Because)
	res, err := record.Plan(snap.FS(), dir, []record.Entry{entry}, record.Options{Now: time.Now()})
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", commandRecordEvidence, err)
	}
	if err := s.applyRecord(ctx, res, view.Dir.CriteriaPath); err != nil {
		return nil, err
	}
	evidence := res.Ops[0] // Plan lists the evidence file first
	s.showPlaceholder(ctx, evidence, selectBecause)
	return map[string]string{"path": evidence.Path}, nil
}

// askOutcome asks the user pass, fail or partial (a code lens click carries
// no outcome); "" when dismissed or unsupported.
func (s *Server) askOutcome(ctx context.Context, id string) string {
	res, err := s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{
		Type:    protocol.MessageTypeInfo,
		Message: "Record evidence for " + id + ":",
		Actions: outcomeItems(),
	})
	if err != nil || res == nil {
		return ""
	}
	if pi.Outcome(res.Title).Valid() {
		return res.Title
	}
	return ""
}

// outcomeItems offers the outcomes, in upstream's order.
func outcomeItems() []protocol.MessageActionItem {
	out := make([]protocol.MessageActionItem, len(pi.Outcomes))
	for i, o := range pi.Outcomes {
		out[i] = protocol.MessageActionItem{Title: string(o)}
	}
	return out
}

// unsaved reports whether path is open in the editor with text that
// differs from the disk.
func (s *Server) unsaved(path string) bool {
	d := s.ws.Snapshot().Document(path)
	if d == nil {
		return false
	}
	disk, err := s.bound.ReadFile(path) // the disk as the workspace reads it
	return err != nil || !bytes.Equal(disk, d.Text)
}

// showPlaceholder opens the new evidence file with the placeholder the user
// should replace selected, when the client can show documents.
func (s *Server) showPlaceholder(ctx context.Context, op record.FileOp, selectBecause bool) {
	s.mu.Lock()
	can := s.caps.showDocument
	s.mu.Unlock()
	if !can {
		return
	}
	yes := true
	params := &protocol.ShowDocumentParams{URI: uri.File(op.Path), TakeFocus: &yes}
	want := `"summary": `
	if selectBecause {
		want = `"because": `
	}
	if i := bytes.Index(op.Content, []byte(want)); i >= 0 {
		start := i + len(want) + 1 // inside the opening quote
		end := start
		for end < len(op.Content) && op.Content[end] != '"' {
			if op.Content[end] == '\\' {
				end++
			}
			end++
		}
		ix := source.NewIndex(op.Content)
		r := toProtocolRange(ix.Range(source.Span{Start: start, End: min(end, len(op.Content))}))
		params.Selection = &r
	}
	if _, err := s.client.ShowDocument(ctx, params); err != nil {
		s.log.Debug("window/showDocument", zap.Error(err))
	}
}
