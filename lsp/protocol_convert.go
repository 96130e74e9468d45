package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// This file is the one place where analysis values become protocol values
// and back. Positions are already LSP positions (UTF-16) in analysis.

func toProtocolPosition(p source.Position) protocol.Position {
	return protocol.Position{Line: clampU32(p.Line), Character: clampU32(p.Character)}
}

func toProtocolRange(r source.Range) protocol.Range {
	return protocol.Range{Start: toProtocolPosition(r.Start), End: toProtocolPosition(r.End)}
}

func fromProtocolPosition(p protocol.Position) source.Position {
	return source.Position{Line: clampInt(p.Line), Character: clampInt(p.Character)}
}

func fromProtocolRange(r protocol.Range) source.Range {
	return source.Range{Start: fromProtocolPosition(r.Start), End: fromProtocolPosition(r.End)}
}

// toProtocolDiagnostics converts located diagnostics; it never returns nil,
// because a publish of `null` is rejected by some clients.
func toProtocolDiagnostics(ds []diag.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Severity == diag.SeverityOff {
			continue
		}
		pd := protocol.Diagnostic{
			Range:    toProtocolRange(d.Range),
			Severity: protocol.DiagnosticSeverity(d.Severity),
			Source:   protocol.NewOptional(d.Source),
			Message:  protocol.String(d.Message),
		}
		if d.Source == "" {
			pd.Source = protocol.NewOptional(diag.Source)
		}
		if d.Code.Rule() != nil {
			pd.Code = protocol.String(d.Code.String())
			pd.CodeDescription = protocol.CodeDescription{Href: uri.URI(d.Code.DocURL())}
		}
		for _, r := range d.Related {
			if r.File == "" {
				continue
			}
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: uri.File(r.File), Range: toProtocolRange(r.Range)},
				Message:  r.Message,
			})
		}
		if len(d.Data) > 0 {
			// encoding/json sorts map keys; protocol.Marshal does not, and
			// a varying key order changed the digest of equal diagnostics
			// (needless republishes, pull resultIds that never matched).
			if raw, err := json.Marshal(d.Data); err == nil {
				pd.Data = raw
			}
		}
		out = append(out, pd)
	}
	return out
}

func clampU32(n int) uint32 {
	if n < 0 {
		return 0
	}
	if n > 1<<31 {
		return 1 << 31
	}
	return uint32(n)
}

func clampInt(n uint32) int {
	if n > 1<<31 {
		return 1 << 31
	}
	return int(n)
}

// toProtocolHover converts a family's hover in the document ix indexes.
func toProtocolHover(ix *source.Index, h *feature.Hover) *protocol.Hover {
	if h == nil {
		return nil
	}
	r := toProtocolRange(ix.Range(h.Span))
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown}, Range: &r}
}

// toProtocolCommand converts a family's command for document d: its
// argument gets the document's uri, and its version when the command acts
// on that version only.
func toProtocolCommand(d *doc, c feature.Command) protocol.Command {
	out := protocol.Command{Title: c.Title, Command: string(c.Name)}
	if c.Name == "" {
		return out
	}
	arg := map[string]any{"uri": d.URI}
	for k, v := range c.Args {
		arg[k] = v
	}
	if c.OnVersion {
		arg["version"] = d.Version
	}
	out.Arguments = commandArgs(arg)
	return out
}

// toProtocolLenses converts a family's code lenses of document d.
func toProtocolLenses(d *doc, lenses []feature.Lens) []protocol.CodeLens {
	ix := d.Index()
	out := make([]protocol.CodeLens, 0, len(lenses))
	for _, l := range lenses {
		out = append(out, protocol.CodeLens{Range: toProtocolRange(ix.Range(l.Span)), Command: toProtocolCommand(d, l.Command)})
	}
	return out
}

// completionKinds are the protocol's kinds of completion items.
var completionKinds = map[feature.ItemKind]protocol.CompletionItemKind{
	feature.Value:     protocol.CompletionItemKindEnumMember,
	feature.Key:       protocol.CompletionItemKindProperty,
	feature.Reference: protocol.CompletionItemKindReference,
}

// toProtocolCompletion converts a family's completion items in the
// document ix indexes; nil stays nil (nothing completes here).
func toProtocolCompletion(ix *source.Index, items []feature.CompletionItem) protocol.CompletionResult {
	if items == nil {
		return nil
	}
	out := protocol.CompletionItemSlice{}
	for _, it := range items {
		ci := protocol.CompletionItem{
			Label:    it.Label,
			Kind:     completionKinds[it.Kind],
			TextEdit: &protocol.TextEdit{Range: toProtocolRange(ix.Range(it.Span)), NewText: it.Insert},
		}
		if it.Detail != "" {
			ci.Detail = protocol.NewOptional(it.Detail)
		}
		if it.Sort != "" {
			ci.SortText = protocol.NewOptional(it.Sort)
		}
		if it.Filter != "" {
			ci.FilterText = protocol.NewOptional(it.Filter)
		}
		out = append(out, ci)
	}
	return out
}

// toProtocolLocation converts a family's location, its span in the file as
// d's snapshot holds it; nil for none.
func (s *Server) toProtocolLocation(d *doc, locs []feature.Location) protocol.DefinitionResult {
	if len(locs) == 0 {
		return nil
	}
	l := s.location(d.snap, locs[0])
	return &l
}

// location converts a family's location, its span in the file as snap
// holds it.
func (s *Server) location(snap *workspace.Snapshot, l feature.Location) protocol.Location {
	return protocol.Location{URI: s.docs.uri(l.Path), Range: toProtocolRange(snap.File(l.Path).Index().Range(l.Span))}
}

// toProtocolActions converts a family's code actions of document d: an
// edit becomes a versioned edit of d, a command runs on d.
func (s *Server) toProtocolActions(d *doc, actions []feature.Action) []*protocol.CodeAction {
	var out []*protocol.CodeAction
	for _, a := range actions {
		ca := &protocol.CodeAction{Title: a.Title, Kind: actionKind(protocol.CodeActionKind(a.Kind))}
		if a.Command != nil {
			ca.Command = toProtocolCommand(d, *a.Command)
		}
		if a.Fix != nil {
			edit, err := s.documentEdit(d, a.Fix.Edits)
			if err != nil {
				continue
			}
			ca.Edit = edit
		}
		out = append(out, ca)
	}
	return out
}

// documentEdit is the versioned workspace edit of d that makes edits
// (spans in d's text).
func (s *Server) documentEdit(d *doc, edits []diag.Edit) (*protocol.WorkspaceEdit, error) {
	ix := d.Index()
	pe := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		pe[i] = protocol.TextEdit{Range: toProtocolRange(ix.Range(e.Span)), NewText: e.NewText}
	}
	v := d.Version
	return s.workspaceEdit(editTarget{URI: d.URI, Path: d.Path, Text: d.Text, Exists: true, Version: &v, Kind: d.Kind}, pe)
}
