package pi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// parseCriterion builds one VAL from its heading and body lines, applying
// upstream's field, flag, description and verifier rules. Its spans are
// offsets in src.
func parseCriterion(src []byte, hl line, text, id, title source.Span, greedy bool, body []line, level int) *parsedCriterion {
	c := &parsedCriterion{
		ID:       string(src[id.Start:id.End]),
		heading:  hl.span(),
		id:       id,
		title:    title,
		Level:    level,
		GreedyID: greedy,
	}
	c.Title = string(src[title.Start:title.End])
	if c.Title == "" {
		c.Title = c.ID
	}
	if greedy {
		c.IntendedID = intendedID(c.ID)
	}
	c.body = source.Span{Start: hl.next, End: hl.next}
	if len(body) > 0 {
		c.body = source.Span{Start: body[0].start, End: body[len(body)-1].end}
	}
	// The fields are gathered on the stack and kept in one allocation of
	// their number (most criteria hold a few): appending to c.fields grew
	// it up to four times.
	var room [8]Field
	fields := room[:0]
	for _, l := range body {
		if f, ok := matchField(src, l); ok {
			fields = append(fields, f)
		} else if fl, ok := matchLooseField(src, l); ok {
			c.notParsed = append(c.notParsed, fl)
		}
	}
	if len(fields) > 0 {
		c.fields = slices.Clone(fields)
	}
	if f := c.field(KeyDescription); f != nil {
		c.Description, c.description = f.Value, f.ValueSpan
	} else {
		c.Description, c.description = bodyDescription(src, body)
	}
	c.resolveVerifier()
	if f := firstField(c, FreshKeys); f != nil {
		c.RequireFreshEvidence, _ = parseBoolean(f.Value) // not a boolean: upstream's fallback is false
	}
	if f := firstField(c, ReviewKeys); f != nil {
		if v, ok := parseBoolean(f.Value); ok {
			c.RequireReviewSubagent = &v
		}
	}
	c.checks = criterionDiagnostics(src, c)
	return c
}

// firstField returns the winning field of the first alias present, in
// upstream's lookup order.
func firstField(c *parsedCriterion, keys []string) *Field {
	for _, k := range keys {
		if f := c.field(k); f != nil {
			return f
		}
	}
	return nil
}

// bodyDescription is upstream's fallback description: the first paragraph
// of body text, stopping at a blank line, a comment or a field line.
func bodyDescription(src []byte, body []line) (string, source.Span) {
	var parts []string
	var span source.Span
	for _, l := range body {
		t := trimSpan(src, l.span())
		text := src[t.Start:t.End]
		if t.Len() == 0 || strings.HasPrefix(string(text), "<!--") {
			if len(parts) > 0 {
				break
			}
			continue
		}
		if _, ok := matchFieldAt(src, l.span(), t); ok {
			break
		}
		if len(parts) == 0 {
			span.Start = t.Start
		}
		span.End = t.End
		parts = append(parts, string(text))
	}
	return strings.TrimFunc(strings.Join(parts, " "), isJSSpace), span
}

// resolveVerifier applies upstream's verifier rules and records its warnings
// in upstream's order: missing-verifier, missing-because, invalid-verifier,
// weak-verifier-phrase-coupled.
func (c *parsedCriterion) resolveVerifier() {
	vf := c.field(KeyVerifier)
	if vf == nil {
		c.warn("missing-verifier", c.heading, "no Verifier: line; upstream treats the VAL as manual")
	}
	if f := c.field(KeyBecause); f != nil {
		c.Because = f.Value
	}
	if vf != nil && VerifierKind(jsLower(vf.Value)) == VerifierManual && c.Because == "" {
		c.warn("missing-because", vf.LineSpan, "manual verifier without a non-empty Because:")
	}
	v := Verifier{Kind: VerifierManual}
	if vf != nil {
		v.Declared, v.Raw = true, vf.Value
		switch k := jsLower(vf.Value); {
		case slices.Contains(VerifierKinds, VerifierKind(k)):
			v.Kind = VerifierKind(k)
		case slices.Contains(VerifierAliases, k):
			v.Kind, v.Alias = VerifierEvidenceExists, k
		case k == "":
			v.Degraded, v.DegradeReason = true, "the Verifier: line names no kind"
			c.warn("invalid-verifier", valueOrLine(*vf), v.DegradeReason)
		default:
			v.Degraded, v.DegradeReason = true, fmt.Sprintf("unknown verifier kind %q", vf.Value)
			c.warn("invalid-verifier", valueOrLine(*vf), v.DegradeReason)
		}
	}
	if f := c.field(KeyCommand); f != nil {
		c.Command = f.Value
	}
	switch v.Kind {
	case VerifierSubagent:
		agent, task := c.field(KeyAgent), c.field(KeyTask)
		if agent != nil {
			v.Agent = agent.Value
		}
		if task != nil {
			v.Task = task.Value
		}
		// Upstream's schema wants both strings; an empty value is still a string.
		var missing []string
		if agent == nil {
			missing = append(missing, "Agent:")
		}
		if task == nil {
			missing = append(missing, "Task:")
		}
		if len(missing) > 0 {
			c.degrade(&v, *vf, "subagent verifier needs "+strings.Join(missing, " and ")+" lines")
		}
	case VerifierEvidenceExists:
		v.EvidenceKind = v.Alias
		if f := c.field(KeyKind); f != nil {
			v.EvidenceKind = f.Value
		}
		if f := c.field(KeyFreshSince); f != nil {
			v.FreshSince = f.Value
		}
		switch {
		case !validEvidenceKind(v.EvidenceKind):
			at := *vf
			if f := c.field(KeyKind); f != nil {
				at = *f
			}
			what := fmt.Sprintf("Kind: %q is not review, qa, readiness or command", v.EvidenceKind)
			if c.field(KeyKind) == nil && v.Alias == "" {
				what = "evidence-exists verifier needs a Kind: line (review, qa, readiness or command)"
			}
			c.degrade(&v, at, what)
		case v.FreshSince != "" && !validDate(v.FreshSince):
			c.degrade(&v, *c.field(KeyFreshSince), fmt.Sprintf("FreshSince: %q is not a date", v.FreshSince))
		}
	}
	c.Verifier = v
	if v.Kind == VerifierCommand {
		if f := c.field(KeyCommand); f != nil {
			if w, weak := WeakVerifier(f.Value); weak {
				c.warn("weak-verifier-phrase-coupled", f.ValueSpan, w.Reason)
			}
		}
	}
}

func validEvidenceKind(k string) bool { return slices.Contains(EvidenceKinds, k) }

func (c *parsedCriterion) degrade(v *Verifier, at Field, reason string) {
	v.Kind, v.Degraded, v.DegradeReason = VerifierManual, true, reason
	c.warn("invalid-verifier", valueOrLine(at), reason)
}

func (c *parsedCriterion) warn(reason string, span source.Span, detail string) {
	c.warnings = append(c.warnings, ParseWarning{Reason: reason, Detail: detail, Span: span})
}

func valueOrLine(f Field) source.Span {
	if f.ValueSpan.Len() > 0 {
		return f.ValueSpan
	}
	return f.LineSpan
}
