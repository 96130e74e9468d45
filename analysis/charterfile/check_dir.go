package charterfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Check returns the diagnostics of every file of the charter folder d, by
// path: charter.md's own (CheckCharter), and what the folder's files say
// together: a state.json upstream rejects, an id upstream cannot look up,
// a journal upstream reads as empty, a file in the other family's grammar.
func Check(d *Dir) map[string][]diag.Diagnostic {
	out, _ := CheckContext(context.Background(), d)
	return out
}

// CheckContext is Check that stops, returning ctx's error, when ctx is
// done: a check superseded by a newer version of the folder stops instead
// of running to its end.
func CheckContext(ctx context.Context, d *Dir) (map[string][]diag.Diagnostic, error) {
	out := map[string][]diag.Diagnostic{}
	if d.Charter != nil {
		// A file in the other family's grammar: checks of the declared
		// grammar would give wrong advice; upstream's own warnings stay,
		// and generation-mismatch says why.
		ds, err := checkCharter(ctx, d.Charter, !d.Era.Mismatch)
		if err != nil {
			return nil, err
		}
		ds = append(ds, checkAgainstState(d)...)
		out[d.CharterPath] = ds
		for p, ds := range eraConflicts(d) {
			out[p] = append(out[p], ds...)
		}
	}
	if d.State != nil {
		out[d.StatePath] = append(out[d.StatePath], checkState(d)...)
	}
	if d.Events != nil {
		out[d.EventsPath] = append(out[d.EventsPath], checkEvents(d.Events)...)
	}
	for _, err := range d.Errors {
		p := d.CharterPath
		var pe *fs.PathError
		if errors.As(err, &pe) {
			p = pe.Path
		}
		out[p] = append(out[p], diag.New(diag.FileUnreadable, source.Span{}, "%v", err))
	}
	// Locate every diagnostic, and related locations in the folder's other files.
	srcs := map[string][]byte{d.CharterPath: d.CharterSrc, d.StatePath: d.StateSrc, d.EventsPath: d.EventsSrc}
	indexes := map[string]*source.Index{}
	index := func(p string) *source.Index {
		if ix, ok := indexes[p]; ok {
			return ix
		}
		ix := source.NewIndex(srcs[p])
		indexes[p] = ix
		return ix
	}
	for p, ds := range out {
		if len(ds) == 0 {
			continue // nothing to locate: its file is not indexed
		}
		diag.Locate(ds, p, index(p))
		for i := range ds {
			for j := range ds[i].Related {
				if r := &ds[i].Related[j]; r.File != p {
					r.Range = index(r.File).Range(r.Span)
				}
			}
		}
		diag.Sort(ds)
	}
	return out, nil
}

// checkAgainstState reports, on charter.md, what depends on state.json.
func checkAgainstState(d *Dir) []diag.Diagnostic {
	var ds []diag.Diagnostic
	if d.StateSrc == nil && !d.Unread[StateFile] {
		ds = append(ds, diag.New(diag.StateInvalid, source.Span{},
			"the charter folder has no state.json: upstream lists only folders with a valid state.json, so this charter does not appear in `charter list` or `charter status`"))
		if !ValidID(d.ID) {
			ds = append(ds, idShape(d, source.Span{}))
		}
	}
	return ds
}

// eraConflicts reports evidence that points to another generation than the
// one the charter is read as (Era.Conflicts), by path.
func eraConflicts(d *Dir) map[string][]diag.Diagnostic {
	paths := map[string]string{CharterFile: d.CharterPath, StateFile: d.StatePath, EventsFile: d.EventsPath}
	out := map[string][]diag.Diagnostic{}
	for _, c := range d.Era.Conflicts {
		dg := diag.New(diag.GenerationMismatch, c.Span, "%s", c.Message)
		for _, r := range c.Related {
			msg := r.Text
			if msg == "" {
				msg = "the evidence"
			}
			dg.Related = append(dg.Related, diag.Related{File: paths[r.File], Span: r.Span, Message: msg})
		}
		out[paths[c.File]] = append(out[paths[c.File]], dg)
	}
	return out
}

// statusRepairs are state.json statuses of earlier pi-charter versions (and
// common misspellings) with the lifecycle status they mean.
var statusRepairs = map[string]pi.Lifecycle{
	"planning": pi.Active, "review": pi.Active, "in-progress": pi.Active, "running": pi.Active, "open": pi.Active,
	"awaiting-clarification": pi.Paused, "budget_limited": pi.Paused, "on-hold": pi.Paused,
	"done": pi.Completed, "complete": pi.Completed, "finished": pi.Completed, "closed": pi.Completed,
	"cancelled": pi.Abandoned, "canceled": pi.Abandoned, "dropped": pi.Abandoned,
}

func checkState(d *Dir) []diag.Diagnostic {
	st := d.State
	var ds []diag.Diagnostic
	if !st.Valid {
		why := st.Problem + ": upstream's loader throws"
		var fix *diag.Fix
		switch st.Field {
		case "":
		case "charterId":
			why = "charterId must be a non-empty string; upstream's loader rejects it (" + st.Problem + ")"
			if m := st.members.Get("charterId"); m != nil && ValidID(d.ID) {
				fix = edit(fmt.Sprintf("Set charterId to %q", d.ID), m.ValueSpan, strconv.Quote(d.ID))
			}
		case "objective":
			why = "objective must be a string; upstream's loader rejects it (" + st.Problem + ")"
		case "status":
			why = fmt.Sprintf("status must be one of %s; upstream's loader rejects it (%s)", strings.Join(lifecycle, ", "), st.Problem)
			if m := st.members.Get("status"); m != nil {
				var s string
				if jsonString(m.Raw, &s) {
					want := string(statusRepairs[strings.ToLower(s)])
					if oneOf(strings.ToLower(s), lifecycle) {
						want = strings.ToLower(s)
					}
					if want != "" {
						fix = edit(fmt.Sprintf("Set status to %q", want), m.ValueSpan, strconv.Quote(want)).Guess(want != strings.ToLower(s))
					}
				}
			}
		case "schemaVersion":
			why = fmt.Sprintf("schemaVersion must be %q or %q; upstream's loader rejects it (%s)", SchemaFileInterface, SchemaPhases, st.Problem)
			if m := st.members.Get("schemaVersion"); m != nil {
				var s string
				if jsonString(m.Raw, &s) {
					norm := strings.Map(func(r rune) rune {
						if r >= 'a' && r <= 'z' {
							return r
						}
						return -1
					}, strings.ToLower(s))
					switch norm {
					case "phases", "phase":
						fix = edit(`Set schemaVersion to "phases"`, m.ValueSpan, `"phases"`)
					case "fileinterface":
						fix = edit(`Set schemaVersion to "file-interface"`, m.ValueSpan, `"file-interface"`)
					}
				}
			}
		}
		ds = append(ds, diag.New(diag.StateInvalid, st.ProblemSpan, "%s, so the charter disappears from upstream's list", why))
		if st.ProblemSpan == (source.Span{}) && st.Field != "" {
			ds[len(ds)-1].Message = fmt.Sprintf("state.json has no valid %s: %s", st.Field, ds[len(ds)-1].Message)
		}
		ds[len(ds)-1].Fix = fix
	}
	switch {
	case !ValidID(d.ID):
		ds = append(ds, idShape(d, st.Span("charterId")))
	case st.CharterID != "" && st.CharterID != d.ID:
		dg := diag.New(diag.CharterIDShape, st.Span("charterId"),
			"charterId %q differs from the folder name %q: upstream finds the charter by its folder name but reports it as %q, so the id it shows cannot be looked up", st.CharterID, d.ID, st.CharterID)
		if m := st.members.Get("charterId"); m != nil {
			dg.Fix = edit(fmt.Sprintf("Set charterId to %q", d.ID), m.ValueSpan, strconv.Quote(d.ID))
		}
		ds = append(ds, dg)
	}
	return ds
}

func idShape(d *Dir, span source.Span) diag.Diagnostic {
	return diag.New(diag.CharterIDShape, span,
		"the folder name %q is not a charter id (YYYYMMDD-HHMMSS-slug, e.g. 20260702-101500-ship-export): upstream lists the charter but cannot look it up by id", d.ID)
}

func checkEvents(ev *Events) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for i, b := range ev.Bad {
		msg := fmt.Sprintf("line %d is not JSON (%s)", b.Line+1, b.Err)
		if i == 0 {
			msg += fmt.Sprintf(": upstream parses the journal in one piece, so it reads the whole history (%s) as empty", feature.Count(len(ev.Parsed), "good event"))
		}
		ds = append(ds, diag.New(diag.EventsLineInvalid, b.Span, "%s", msg))
	}
	return ds
}

func jsonString(raw []byte, s *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, s) == nil
}
