package pi

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Hover explains the VAL at off in the charter file at path (ix is its
// line index): on a ### VAL-* heading of the register the file holds
// (criteria.md, or a legacy charter.md register), or on a VAL id named
// anywhere else (evidence JSON, criterion-state.json, REPORT.md), the VAL's
// latest outcome, its verifier, flags, freshness and its milestone's
// progress as of now. The command is shown as code and never run.
func Hover(v *View, path string, ix *source.Index, off int, now time.Time) *feature.Hover {
	var eff *Criterion
	var span source.Span
	if c := v.Register(path).HeadingAt(off); c != nil {
		// The register as loaded has the winning definition (a duplicate
		// id's first one); fall back to the one under the cursor.
		eff, span = v.Criterion(c.ID), c.HeadingSpan()
		if eff == nil {
			eff = c
		}
	} else if id, at := valIDAt(ix.Source(), ix, off); id != "" {
		// A VAL named elsewhere: evidence JSON, criterion-state.json,
		// REPORT.md, a Depends-like mention in the register.
		eff, span = v.Criterion(id), at
	}
	if eff == nil {
		return nil
	}
	return &feature.Hover{Span: span, Markdown: hoverText(v, eff, now)}
}

// valIDAt is the VAL id under offset off and its span, or "".
func valIDAt(text []byte, ix *source.Index, off int) (string, source.Span) {
	line := ix.LineSpan(ix.Line(off))
	i, j := feature.TokenBounds(string(text[line.Start:line.End]), off-line.Start, feature.IsWordByte)
	id := string(text[line.Start+i : line.Start+j])
	if len(id) <= 4 || !strings.HasPrefix(id, "VAL-") {
		return "", source.Span{}
	}
	return id, source.Span{Start: line.Start + i, End: line.Start + j}
}

// hoverText is the hover's markdown.
func hoverText(view *View, c *Criterion, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", c.ID)
	if c.Title != "" && c.Title != c.ID {
		fmt.Fprintf(&b, " — %s", feature.Escape(c.Title))
	}
	b.WriteString("\n\n")
	if m := view.MilestoneOf(c.ID); m != nil {
		pass, total := view.Progress(m)
		fmt.Fprintf(&b, "Milestone `%s`: %d/%d pass\n\n", m.ID, pass, total)
	}

	o, ok := view.Latest[c.ID]
	if !ok {
		b.WriteString("**No evidence recorded yet.**\n\n")
	} else {
		fmt.Fprintf(&b, "**Latest outcome: %s %s**", o.Outcome.Mark(), feature.Escape(string(o.Outcome)))
		if o.TimeOK {
			fmt.Fprintf(&b, " — %s (%s)", feature.Ago(now, o.Time), o.Time.UTC().Format(time.RFC3339))
		} else if o.TS != "" {
			fmt.Fprintf(&b, " — unreadable time `%s`", feature.CodeSafe(o.TS))
		}
		b.WriteString("\n\n")
		if o.Summary != "" {
			fmt.Fprintf(&b, "Summary: %s\n\n", feature.Escape(o.Summary))
		}
		var who []string
		if o.Source != "" {
			who = append(who, "source "+feature.Escape(string(o.Source)))
		}
		if o.RecordedBy != "" {
			who = append(who, "recorded by "+feature.Escape(o.RecordedBy))
		}
		if len(who) > 0 {
			b.WriteString(strings.Join(who, " · ") + "\n\n")
		}
		if o.Because != "" {
			fmt.Fprintf(&b, "Because: %s\n\n", feature.Escape(o.Because))
		}
		if o.EvidencePath != "" {
			p := filepath.Join(view.Dir.Path, filepath.FromSlash(o.EvidencePath))
			fmt.Fprintf(&b, "Evidence: %s\n\n", feature.Link(o.EvidencePath, p))
		}
	}

	v := c.Verifier
	kind := string(v.Kind)
	if v.Alias != "" {
		kind += " (" + v.Alias + ")"
	}
	if !v.Declared {
		kind += " (no Verifier: line)"
	}
	if v.Degraded {
		kind += " — degraded: " + feature.Escape(v.DegradeReason)
	}
	fmt.Fprintf(&b, "Verifier: %s\n\n", kind)
	if c.Command != "" {
		fence := "```"
		for strings.Contains(c.Command, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "%ssh\n%s\n%s\n\n(charter-lsp shows commands; it never runs them)\n\n", fence, c.Command, fence)
	}
	if v.Kind == VerifierSubagent {
		fmt.Fprintf(&b, "Agent: %s · Task: %s\n\n", feature.Escape(v.Agent), feature.Escape(v.Task))
	}
	if v.Kind == VerifierEvidenceExists && v.EvidenceKind != "" {
		fmt.Fprintf(&b, "Evidence kind: %s", feature.Escape(v.EvidenceKind))
		if v.FreshSince != "" {
			fmt.Fprintf(&b, " · fresh since %s", feature.Escape(v.FreshSince))
		}
		b.WriteString("\n\n")
	}
	var flags []string
	if c.RequireFreshEvidence {
		flags = append(flags, "fresh evidence required")
	}
	if c.RequireReviewSubagent != nil && *c.RequireReviewSubagent {
		flags = append(flags, "review subagent required")
	}
	if len(flags) > 0 {
		fmt.Fprintf(&b, "Flags: %s\n\n", strings.Join(flags, " · "))
	}

	if st, stale := view.StaleOf(c); stale {
		b.WriteString("**⚠ Stale:** ")
		if !st.Outcome.TimeOK {
			b.WriteString("the latest pass has an unreadable time, which counts as stale")
		} else {
			fmt.Fprintf(&b, "the source changed %s after this pass", feature.Approx(st.SourceTime.Sub(st.Outcome.Time)))
		}
		fmt.Fprintf(&b, " — newest source change %s", st.SourceTime.UTC().Format(time.RFC3339))
		if st.SourcePath != "" {
			fmt.Fprintf(&b, " in %s", feature.Link(feature.RelTo(view.Dir.Project, st.SourcePath), st.SourcePath))
		}
		b.WriteString(". Re-verify and record new evidence.\n")
	} else if c.RequireFreshEvidence && ok && o.Outcome == Pass {
		b.WriteString("Fresh: no source change since this pass.\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
