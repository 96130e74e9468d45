package charterfile

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// A seeded generator of .charters/<id>/ folders for the differential against
// pi-charter's own parsers (era_diff_test.go): charter.md in the shape of
// each generation, realistic and awkward (near-miss headings, unknown
// tokens, dash variants, continuation lines, comments, fences, CRLF, headings
// that name phases, old phases kept as notes, criteria under the Objective
// grammar), with state.json and events.jsonl that say, or do not say, or
// contradict, which generation wrote them.

// eraCase is one generated folder.
type eraCase struct {
	ID      string
	Written Generation // the generation the text was written for
	Charter string
	State   *string // nil: no state.json
	Events  *string // nil: no events.jsonl
	// Says is the file-interface generation state.json and events.jsonl
	// say wrote them (the snapshot's shape, else the journal's field
	// names); "" when they say none, or contradict each other.
	Says Generation
}

type eraGen struct{ r *rand.Rand }

func newEraGen(seed uint64) *eraGen {
	return &eraGen{r: rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))}
}

func (g *eraGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// maybe writes s to b with probability p.
func (g *eraGen) maybe(b *strings.Builder, p float64, s string) {
	if g.chance(p) {
		b.WriteString(s)
	}
}
func (g *eraGen) chance(p float64) bool { return g.r.Float64() < p }

// genEraCases generates n folders from seed, cycling through the four
// generations' texts.
func genEraCases(seed uint64, n int) []eraCase {
	g := newEraGen(seed)
	order := []Generation{FI14, FI15, PH, OBJ}
	out := make([]eraCase, 0, n)
	for i := range n {
		c := eraCase{ID: fmt.Sprintf("c%04d", i), Written: order[i%len(order)]}
		var crit []genCriterion
		switch c.Written {
		case FI14, FI15:
			c.Charter, crit = g.fileInterface(c.Written)
		case PH:
			c.Charter = g.phases()
		default:
			c.Charter = g.objective()
		}
		if g.chance(0.06) {
			c.Charter = strings.ReplaceAll(c.Charter, "\n", "\r\n")
		}
		g.sidecars(&c, crit)
		out = append(out, c)
	}
	return out
}

var (
	genObjectives = []string{
		"Move CSV export off the request path so a 50k-row export never times out.",
		"Ship account recovery without changing login.",
		"Cut the median checkout time to under 20 seconds.",
		"Replace the hand-rolled config parser with the TOML library.\n\nExisting config files keep working unchanged.",
		"Let readers export their reading history as CSV and JSON.\n- Desktop and mobile\n- No new permissions",
		"Sync calendars from two providers into one local index.",
	}
	genTitles = []string{"Exports run on the worker", "Large exports finish", "Docs updated", "The old route is gone",
		"Errors are reported", "Recovery email arrives", "x", "Logs stay out of the index"}
	genNotes = []string{"queue test: 12/12 (2026-07-03)", "50k rows took 94 s, budget is 60 s", "", "see work/run-1.md",
		"ran `go test ./...`", "waiting on the provider", "—", "pass"}
)

// genCriterion is a criterion the text holds (for the snapshot).
type genCriterion struct {
	id, title, token, note string
	depends                []string
}

// prose is a paragraph, sometimes with a line a parser might misread.
func (g *eraGen) prose(extra ...string) string {
	lines := []string{g.pick(genObjectives...)}
	if g.chance(0.2) {
		lines = append(lines, g.pick(extra...))
	}
	if g.chance(0.1) {
		lines = append(lines, "<!-- Keep the Objective substantial and bounded. -->")
	}
	return strings.Join(lines, "\n")
}

func (g *eraGen) sep() string { return g.pick(" — ", " — ", " – ", " - ", " ", "—", " —") }

func (g *eraGen) fileInterface(gen Generation) (string, []genCriterion) {
	var b strings.Builder
	if g.chance(0.4) {
		fmt.Fprintf(&b, "# Charter: %s\n\n", g.pick(genTitles...))
	}
	g.maybe(&b, 0.15, "<!-- Write the Objective, then one criterion per observable outcome. -->\n\n")
	objective := g.prose("Status: agreed with the data team on 2026-07-01.", "Evidence of demand: three tickets a week.", "Depends: nothing.")
	switch x := g.r.Float64(); {
	case x < 0.03:
	case x < 0.06:
		fmt.Fprintf(&b, "### Objective\n%s\n\n", objective)
	case x < 0.10:
		fmt.Fprintf(&b, "## Objective\n%s\n\n## Objective\n%s\n\n", objective, g.pick(genObjectives...))
	case x < 0.13:
		b.WriteString("## Objective\n\n")
	case x < 0.15:
		b.WriteString("## objective\n" + objective + "\n\n")
	default:
		fmt.Fprintf(&b, "## Objective\n\n%s\n\n", objective)
	}
	refs := 0.05
	if gen == FI15 {
		refs = 0.5
	}
	if g.chance(refs) {
		b.WriteString("## References\n\n- `docs/spec.md` — requirements\n\n")
	}
	g.maybe(&b, 0.35, "## Scope\n\n- In: the export endpoint.\n- Out: the PDF renderer.\n\n")
	switch x := g.r.Float64(); {
	case x < 0.04:
	case x < 0.06:
		b.WriteString("## criteria\n\n")
	case x < 0.08:
		b.WriteString("### Criteria\n\n")
	default:
		b.WriteString("## Criteria\n\n")
	}
	n := g.r.IntN(6)
	var crit []genCriterion
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("C%d", i)
		if g.chance(0.05) && i > 1 {
			id = fmt.Sprintf("C%d", i-1) // a duplicate id
		}
		c := genCriterion{id: id, title: g.pick(genTitles...)}
		after := ""
		switch x := g.r.Float64(); {
		case x < 0.03:
			fmt.Fprintf(&b, "### %s %s\n", id, c.title)
		case x < 0.05:
			fmt.Fprintf(&b, "### %s. %s\n", strings.ToLower(id), c.title)
		case x < 0.07:
			fmt.Fprintf(&b, "#### %s. %s\n", id, c.title)
		case x < 0.08:
			fmt.Fprintf(&b, "### %s.\n", id)
		case x < 0.09:
			fmt.Fprintf(&b, "###%s. %s\n", id, c.title)
		default:
			fmt.Fprintf(&b, "### %s. %s\n", id, c.title)
		}
		if g.chance(0.4) {
			b.WriteString(g.pick("A request enqueues a job and returns 202 at once.", "Measured on staging.", "The page shows the state.\nEven offline.") + "\n")
		}
		if g.chance(0.3) && i > 1 {
			c.depends = []string{fmt.Sprintf("C%d", g.r.IntN(i-1)+1)}
			dep := strings.Join(c.depends, ", ")
			switch x := g.r.Float64(); {
			case x < 0.1:
				dep = "none"
			case x < 0.2:
				dep = "C1 and C9"
			case x < 0.25:
				dep = id
			case x < 0.3:
				dep = "c1"
			}
			if g.chance(0.1) {
				after = dep // a Depends line after the status line
			} else {
				fmt.Fprintf(&b, "Depends: %s\n", dep)
			}
		}
		c.token = g.pick("pass", "fail", "pending", "none", "in-progress", "blocked")
		c.note = g.pick(genNotes...)
		line := g.statusLine(gen, &c)
		switch x := g.r.Float64(); {
		case x < 0.07: // no status line
		case x < 0.10:
			b.WriteString(g.pick("**Status**: pass — ran it", "- Status: pass", "  Status: pass — indented", "Status : pass") + "\n")
		default:
			b.WriteString(line + "\n")
		}
		if gen == FI15 && g.chance(0.05) {
			b.WriteString("Status: fail — a second line\n")
		}
		if gen == FI15 && g.chance(0.05) {
			b.WriteString("Evidence: pass — legacy beside Status\n")
		}
		if g.chance(0.15) {
			b.WriteString(g.pick("re-ran on the staging box, same result", "  indented continuation", "") + "\n")
		}
		if after != "" {
			fmt.Fprintf(&b, "Depends: %s\n", after)
		}
		if g.chance(0.04) {
			b.WriteString("```sh\n# run the suite\nmake test\n```\n")
		}
		b.WriteString("\n")
		crit = append(crit, c)
	}
	g.maybe(&b, 0.05, "```md\n### C9. An example criterion\nStatus: pending\n```\n")
	return b.String(), crit
}

// statusLine is the line recording c's status as generation gen writes it,
// sometimes in a form its parser does not know.
func (g *eraGen) statusLine(gen Generation, c *genCriterion) string {
	if gen == FI14 || g.chance(0.08) { // FI15 charters sometimes keep legacy Evidence lines
		switch c.token {
		case "pending", "in-progress", "blocked":
			c.token = "none"
		}
		tok := c.token
		switch x := g.r.Float64(); {
		case x < 0.04:
			tok = "maybe"
		case x < 0.07:
			tok = "PASS:"
		case x < 0.09:
			return "Evidence:"
		case x < 0.11:
			return "Evidence: pass—ok"
		}
		if c.note == "" {
			return "Evidence: " + tok
		}
		return "Evidence: " + tok + g.sep() + c.note
	}
	tok := c.token
	if tok == "none" {
		tok = "pending"
	}
	switch x := g.r.Float64(); {
	case x < 0.04:
		tok = "done"
	case x < 0.07:
		tok = "in progress"
	case x < 0.09:
		return "Status:"
	case x < 0.10:
		tok = "Passed"
	}
	c.token = tok
	if c.note == "" {
		return "Status: " + tok
	}
	return "Status: " + tok + g.sep() + c.note
}

func (g *eraGen) phases() string {
	var b strings.Builder
	objective := g.prose("It must not change login.", "## Constraints\nKeep the API.")
	switch x := g.r.Float64(); {
	case x < 0.03:
	case x < 0.05:
		fmt.Fprintf(&b, "## Objective\n%s\n\n", objective)
	case x < 0.08:
		b.WriteString("# Objective\n\n")
	default:
		fmt.Fprintf(&b, "# Objective\n\n%s\n\n", objective)
	}
	g.maybe(&b, 0.15, "## Notes\n\nKeep the reader unchanged.\n\n")
	g.maybe(&b, 0.4, "## References\n\n- [Export spec](../../docs/export.md) — fields and formats\n\n")
	g.maybe(&b, 0.4, "## Scope\n\nHistory export only.\n\n")
	switch x := g.r.Float64(); {
	case x < 0.05:
		b.WriteString("### Phases\n\n")
	case x < 0.10:
		b.WriteString("## Phase plan\n\n")
	case x < 0.18:
	default:
		b.WriteString("## Phases\n\n")
	}
	n := g.r.IntN(6)
	for i := 1; i <= n; i++ {
		title := g.pick("Map the data", "Build the endpoint", "Verify in the browser", "Write the release note", "Explore phases")
		suffix := g.pick(" — done", " — current", " — upcoming", "", "", " - done", " – done", "—done", " — blocked", " — in progress", " — Done", " —done ")
		switch x := g.r.Float64(); {
		case x < 0.04:
			fmt.Fprintf(&b, "%d) %s%s\n", i, title, suffix)
		case x < 0.07:
			fmt.Fprintf(&b, "- %s%s\n", title, suffix)
		case x < 0.10:
			fmt.Fprintf(&b, " %d. %s%s\n", i, title, suffix)
		default:
			fmt.Fprintf(&b, "%d. %s%s\n", i, title, suffix)
		}
		if g.chance(0.4) {
			b.WriteString(g.pick("   The history table has every field.", "   - Desktop: checked\n   - Mobile: pending", "\tTabbed body line", "      deep indent") + "\n")
			if g.chance(0.2) {
				b.WriteString("Result: clean.\n   Second run on Tuesday.\n")
			}
		}
	}
	g.maybe(&b, 0.2, "\n## Notes\n\nRemember the cache.\n")
	g.maybe(&b, 0.1, "\n<!-- Add, split, rename, or finish phases:\n\n     1. Explore phases — done\n-->\n")
	return b.String()
}

func (g *eraGen) objective() string {
	var b strings.Builder
	if g.chance(0.3) {
		// The ADR-0018 template.
		fmt.Fprintf(&b, "# Objective\n\n%s\n\n<!-- Keep the Objective substantial and bounded. -->\n\n## References\n\n<!-- Optional links. -->\n\n## Scope\n\n<!-- Optional boundaries. -->\n", g.pick(genObjectives...))
		return b.String()
	}
	objective := g.prose("### Why now\nThe parser blocks the plugin work.", "## Constraints\nDo not change login.")
	switch x := g.r.Float64(); {
	case x < 0.02:
		fmt.Fprintf(&b, "Objective\n=========\n%s\n\n", objective)
	case x < 0.04:
		fmt.Fprintf(&b, "# Objective:\n%s\n\n", objective)
	case x < 0.06:
		fmt.Fprintf(&b, "## Objective\n%s\n\n", objective)
	case x < 0.08:
		b.WriteString("# Objective\n\n")
	default:
		fmt.Fprintf(&b, "# Objective\n\n%s\n\n", objective)
	}
	g.maybe(&b, 0.2, "## Constraints\n\nThe address form keeps every field.\n\n")
	if g.chance(0.15) {
		fmt.Fprintf(&b, "## %s\n\nInterview five new users.\n\n", g.pick("Phase 1: discovery", "Phase plan", "Phases (old)", "phase 2 - build"))
	}
	g.maybe(&b, 0.4, "## References\n\n- `docs/checkout/funnel.md` — where the time goes\n\n")
	g.maybe(&b, 0.4, "## Scope\n\nThe checkout pages only.\n\n")
	g.maybe(&b, 0.04, "## Scope\n\nA second scope.\n\n")
	g.maybe(&b, 0.04, "```md\n## Scope\nan example\n```\n\n")
	if g.chance(0.45) {
		b.WriteString("## Notes\n\nRemember the cache.\n\n")
		switch x := g.r.Float64(); {
		case x < 0.35:
			b.WriteString("## Phases\n\n1. Explore — done\n2. Build — current\n   half done\n\n")
		case x < 0.45:
			b.WriteString("### Phases\n\n1. Explore — done\n\n")
		case x < 0.55:
			b.WriteString("## Criteria\n### C1. Clients warned\nStatus: pass — banner shipped\n\n")
		}
	} else if g.chance(0.1) {
		b.WriteString("## Phases\n\n1. Explore — done\n")
	}
	return b.String()
}

// sidecars writes state.json and events.jsonl for c, saying (or not, or
// contradicting) which generation wrote them.
func (g *eraGen) sidecars(c *eraCase, crit []genCriterion) {
	str := func(s string) *string { return &s }
	id := "20260702-101500-example"
	fi := c.Written == FI14 || c.Written == FI15
	switch x := g.r.Float64(); {
	case x < 0.08:
		return // no state.json, no journal
	case x < 0.12:
		c.State = str(fmt.Sprintf(`{"charterId":%q,"schemaVersion":%q,"objective":"x","status":"active"}`, id, g.pick("v2", "Phases", "file_interface")))
		return
	}
	schema := SchemaPhases
	if fi != g.chance(0.1) { // now and then the other family's declaration
		schema = SchemaFileInterface
	}
	var events []string
	if g.chance(0.7) {
		events = append(events, fmt.Sprintf(`{"type":"charter_created","ts":"2026-07-02T10:15:00.000Z","charterId":%q,"objective":"x"}`, id))
	}
	snapshot := "[]"
	if schema == SchemaFileInterface {
		// Which generation wrote the state: mostly the text's own, sometimes
		// the next one (ADR-0015 keeping an ADR-0014 file), sometimes the
		// other way round, sometimes nothing says.
		writer := c.Written
		switch x := g.r.Float64(); {
		case !fi:
			writer = g.pickGen(FI14, FI15)
		case x < 0.2:
			writer = FI15
		case x < 0.28:
			writer = FI14
		case x < 0.38:
			writer = ""
		}
		how := g.pick("snapshot", "snapshot", "journal", "both")
		if writer != "" && len(crit) == 0 && how == "snapshot" {
			how = "journal"
		}
		if writer != "" {
			c.Says = writer
			if how != "journal" && len(crit) > 0 {
				var entries []string
				for _, cr := range crit {
					deps := "[]"
					if len(cr.depends) > 0 {
						deps = `["` + strings.Join(cr.depends, `","`) + `"]`
					}
					if writer == FI14 {
						tok := map[string]string{"pass": "pass", "fail": "fail"}[cr.token]
						if tok == "" {
							tok = "none"
						}
						entries = append(entries, fmt.Sprintf(`{"id":%q,"title":%q,"depends":%s,"evidence":{"status":%q,"note":%q},"evidenceSeq":%d}`, cr.id, cr.title, deps, tok, cr.note, g.r.IntN(4)))
					} else {
						tok := cr.token
						if !slices.Contains(StatusLineTokens, Status(tok)) {
							tok = "pending"
						}
						entries = append(entries, fmt.Sprintf(`{"id":%q,"title":%q,"depends":%s,"status":{"value":%q,"note":%q},"statusSeq":%d}`, cr.id, cr.title, deps, tok, cr.note, g.r.IntN(4)))
					}
				}
				snapshot = "[" + strings.Join(entries, ",") + "]"
			}
			if how != "snapshot" || len(crit) == 0 {
				field := "status.value"
				if writer == FI14 {
					field = "evidence.status"
				}
				events = append(events, fmt.Sprintf(`{"type":"criterion_changed","ts":"2026-07-03T08:00:00.000Z","charterId":%q,"seq":1,"criterion":"C1","field":%q,"old":"none","new":"pass","source":"external"}`, id, field))
			}
			if writer == FI14 && snapshot != "[]" && g.chance(0.08) {
				// ADR-0015 changed a criterion, then ADR-0014 wrote the state:
				// the sidecars contradict each other.
				events = append(events, fmt.Sprintf(`{"type":"criterion_changed","ts":"2026-07-04T08:00:00.000Z","charterId":%q,"seq":2,"criterion":"C1","field":"status.value","old":"pending","new":"pass","source":"tool"}`, id))
			}
		}
		if g.chance(0.05) && snapshot != "[]" {
			// Entries of both shapes: no pi-charter writes that.
			snapshot = snapshot[:len(snapshot)-1] + `,{"id":"C99","title":"Mixed","depends":[],"status":{"value":"pass","note":"x"},"statusSeq":1},{"id":"C98","title":"Mixed","depends":[],"evidence":{"status":"pass","note":"x"},"evidenceSeq":1}]`
		}
		c.State = str(fmt.Sprintf(`{"charterId":%q,"schemaVersion":"file-interface","objective":"x","status":"active","nextSeq":4,"latestSourceSeq":0,"snapshotHash":"","criteriaSnapshot":%s}`, id, snapshot))
	} else {
		c.State = str(fmt.Sprintf(`{"charterId":%q,"schemaVersion":"phases","objective":"x","status":%q,"createdAt":"2026-10-12T09:15:00.000Z"}`, id, g.pick("active", "active", "paused", "completed")))
		if g.chance(0.3) {
			events = append(events, fmt.Sprintf(`{"type":"ralph_activated","ts":"2026-10-13T09:00:00.000Z","charterId":%q,"kind":"normal"}`, id))
		}
		if g.chance(0.25) {
			events = append(events, fmt.Sprintf(`{"type":"charter_file_changed","ts":"2026-10-13T09:05:00.000Z","charterId":%q,"previousHash":"a","snapshotHash":"b"}`, id))
		}
	}
	if g.chance(0.04) {
		events = append(events, `{"type":"charter_paused",`) // a line cut short
	}
	if len(events) > 0 || g.chance(0.5) {
		j := strings.Join(events, "\n")
		if j != "" {
			j += "\n"
		}
		c.Events = str(j)
	}
	if s := c.Says; s != "" && snapshot != "[]" && strings.Contains(snapshot, `"C98"`) {
		c.Says = "" // the snapshot's shapes contradict each other
	}
	if c.Says == FI14 && c.Events != nil && strings.Contains(*c.Events, `"status.value"`) && snapshot != "[]" {
		c.Says = "" // the journal contradicts the state
	}
}

func (g *eraGen) pickGen(gs ...Generation) Generation { return gs[g.r.IntN(len(gs))] }
