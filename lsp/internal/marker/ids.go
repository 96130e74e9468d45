package marker

// The markers of ids: references, rename, document links, inlay hints.

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
)

// refs(location, target …): the references at the location (declaration
// included) are exactly these targets.
func refsMarker(s *session, m *mark) {
	if !s.wantArgs(m, 1, -1) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	res, err := s.c.Server.References(s.r.t.Context(), &protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: s.document(p), Position: rng.Start},
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true},
	})
	if err != nil {
		s.errorf(m, "textDocument/references: %v", err)
		return
	}
	s.matchLocations(m, "references", res, m.args[1:])
}

// rename(location, "new name", golden [, confirm=no]): prepareRename at
// the location, then rename; the editor applies the edit (with the user
// confirming the changes that need it, unless confirm=no) in a workspace
// of its own. The golden holds what changed as for codeaction; a refused
// rename is its :error.
func renameMarker(s *session, m *mark) {
	if !s.wantArgs(m, 3, 3) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	if m.args[1].kind != kindString {
		s.errorf(m, "want the new name as a string, got %s", m.args[1])
		return
	}
	confirm := true
	if v, ok := m.named["confirm"]; ok {
		switch w, _ := word(v); w {
		case "yes":
		case "no":
			confirm = false
		default:
			s.errorf(m, "confirm= is yes or no, got %s", v)
			return
		}
	}
	g := s.goldenFor(m, m.args[2])
	if g == nil {
		return
	}
	s.perform(m, g, func(w *effects) {
		ctx := s.r.t.Context()
		pos := protocol.TextDocumentPositionParams{TextDocument: s.document(p), Position: rng.Start}
		if _, err := s.c.Server.PrepareRename(ctx, &protocol.PrepareRenameParams{TextDocumentPositionParams: pos}); err != nil {
			w.err = "prepareRename: " + err.Error()
			return
		}
		edit, err := s.c.Server.Rename(ctx, &protocol.RenameParams{TextDocumentPositionParams: pos, NewName: m.args[1].str})
		if err != nil {
			w.err = "rename: " + err.Error()
			return
		}
		w.actionEdit, w.editLabel = edit, "rename edit"
		if !confirm {
			s.c.SetConfirm(func(protocol.ChangeAnnotationIdentifier, protocol.ChangeAnnotation) bool { return false })
			defer s.c.SetConfirm(nil)
		}
		if err := s.c.ApplyEdit(*edit); err != nil {
			w.err = "the editor could not apply the rename: " + err.Error()
		}
	})
}

// links(golden): the document links of the marker's file, one a line:
// the range, the linked text, the target.
func linksMarker(s *session, m *mark) {
	g := s.fileGolden(m)
	if g == nil {
		return
	}
	res, err := s.c.Server.DocumentLink(s.r.t.Context(), &protocol.DocumentLinkParams{TextDocument: s.document(m.file.path)})
	if err != nil {
		s.errorf(m, "textDocument/documentLink: %v", err)
		return
	}
	text, _ := s.text(m.file.path)
	mp := newMapper(text)
	var b strings.Builder
	for _, l := range res {
		target := "(none)"
		if l.Target != nil {
			target = s.normalize(s.rel(*l.Target))
		}
		fmt.Fprintf(&b, "%s %q -> %s\n", formatRange(l.Range), text[mp.offset(l.Range.Start):mp.offset(l.Range.End)], target)
	}
	s.compareGolden(m, g, map[string]string{"": b.String()})
}

// inlay(location, "label" or re"label"): an inlay hint on the location's
// line with this label.
func inlayMarker(s *session, m *mark) {
	if !s.wantArgs(m, 2, 2) {
		return
	}
	p, rng, ok := s.locate(m, m.args[0])
	if !ok || !s.requireOpen(m, p) {
		return
	}
	if m.args[1].kind != kindString && m.args[1].kind != kindRegexp {
		s.errorf(m, "want the label as a string or re\"pattern\", got %s", m.args[1])
		return
	}
	text, _ := s.text(p)
	whole := protocol.Range{End: protocol.Position{Line: uint32(strings.Count(text, "\n") + 1)}}
	res, err := s.c.Server.InlayHint(s.r.t.Context(), &protocol.InlayHintParams{TextDocument: s.document(p), Range: whole})
	if err != nil {
		s.errorf(m, "textDocument/inlayHint: %v", err)
		return
	}
	var all []string
	for _, h := range res {
		label := ""
		if l, ok := h.Label.(protocol.String); ok {
			label = string(l)
		}
		all = append(all, fmt.Sprintf("%d:%q", h.Position.Line+1, label))
		if h.Position.Line == rng.Start.Line && matches(m.args[1], label) {
			if m.args[1].kind == kindString && label != m.args[1].str {
				continue
			}
			return
		}
	}
	if len(all) == 0 {
		all = []string{"none"}
	}
	s.errorf(m, "no inlay hint %s on line %d of %s; the hints (line:label): %s", m.args[1], rng.Start.Line+1, p, strings.Join(all, ", "))
}
