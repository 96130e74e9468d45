package hostile

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// The documents below attack the cost of parsing: text that a careless
// parser handles in more than a constant amount of work per byte (a quote
// nested 300,000 deep on one line, a run of unclosed links or code spans,
// a Depends line naming 100,000 criteria), put in every place of every
// charter family a parser reads. A test builds them at a given size and
// checks that the work, the memory and the time grow with the size, not
// with its square.

// A Run is text of about size bytes made of one pattern: a unit repeated on
// one line, one line repeated, or a unit nested.
type Run struct {
	Name string
	Text func(size int) string
}

// Shape is how Repeat lays a unit out.
type Shape uint8

const (
	OneLine Shape = iota // unit unit unit …
	Lines                // one unit a line
	Nested               // the unit's first half n times, then its second half n times
)

// Repeat lays unit out n times in shape: the generator of the runs below
// and of the fuzz targets that look for more of them.
func Repeat(unit string, n int, shape Shape) string {
	switch shape % 3 {
	case Lines:
		return strings.Repeat(unit+"\n", n)
	case Nested:
		h := len(unit) / 2
		return strings.Repeat(unit[:h], n) + "x" + strings.Repeat(unit[h:], n)
	}
	return strings.Repeat(unit, n)
}

// line repeats unit on one line (then end), lines repeats it as lines, to
// about size bytes.
func line(unit, end string) func(int) string {
	return func(size int) string { return Repeat(unit, max(1, size/len(unit)), OneLine) + end }
}

func lines(unit string) func(int) string {
	return func(size int) string { return Repeat(unit, max(1, size/(len(unit)+1)), Lines) }
}

// nested opens n times, writes x, and closes n times.
func nested(open, close string) func(int) string {
	return func(size int) string {
		return Repeat(open+close, max(1, size/(len(open)+len(close))), Nested)
	}
}

// Runs are the patterns, each named for what it attacks.
var Runs = []Run{
	// Block nesting: goldmark keeps a stack of open blocks and measures each
	// line's indentation from its start, so both grow with the depth.
	{"quotes", line(">", " x")},
	{"spaced-quotes", line("> ", "x")},
	{"ordered-lists", line("1. ", "x")},
	{"bullet-lists", line("- ", "x")},
	{"quoted-lists", line("> - ", "x")},
	{"mixed-nesting", line("> 1. - ", "x")},
	{"deep-quote-then-lazy-lines", func(size int) string {
		return strings.Repeat(">", size/2) + " x\n" + strings.Repeat("y\n", size/4)
	}},
	{"indented-items", func(size int) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			b.WriteString(strings.Repeat("  ", i%200) + "- x\n")
		}
		return b.String()
	}},
	// Inline runs: links, brackets, code spans, emphasis, HTML.
	{"unclosed-links", line("[a](", "")},
	{"unclosed-angle-links", line("[a](<", "")},
	{"brackets", line("[", "")},
	{"nested-brackets", nested("[", "]")},
	{"images", line("![", "")},
	{"code-spans", line("`a", "")},
	{"double-code-spans", line("``a", "")},
	{"growing-backtick-runs", func(size int) string {
		var b strings.Builder
		for i := 1; b.Len() < size; i++ {
			b.WriteString(strings.Repeat("`", i) + "a")
		}
		return b.String()
	}},
	{"emphasis", line("*a", "")},
	{"underscores", line("_a", "")},
	{"unmatched-emphasis", line("_a a* ", "")},
	{"autolinks", line("<http://a", "")},
	{"raw-html", line(`<a href="`, "")},
	{"comment-openers", line("<!--", "")},
	{"comment-lines", lines("<!-- a")},
	{"entities", line("&#", "")},
	{"escapes", line(`\`, "")},
	{"pipes", line("|", "")},
	{"wide-table", func(size int) string {
		cols := max(1, size/8)
		return "|" + strings.Repeat(" a |", cols) + "\n|" + strings.Repeat("---|", cols) + "\n"
	}},
	// Placeholder markers, which the rp1 checks look for line by line.
	{"todo-markers", line("TODO: ", "")},
	{"tbd-markers", line("TBD ", "")},
	{"bracket-placeholders", line("[your x", "")},
	{"brace-placeholders", line("{A", "")},
	{"angle-placeholders", line("<insert ", "")},
	// Lines.
	{"fences", lines("```")},
	{"tilde-fences", lines("~~~")},
	{"headings", lines("## a")},
	{"field-lines", lines("Status: pass")},
	{"long-line", line("a", "")},
	{"words", line("word. ", "")},
	{"colons", line("a: ", "")},
	{"criterion-ids", line("C1, x, ", "")},
	{"crs", line("\r", "")},
	// What the generation detectors, the interview and the id scanners
	// read: skeleton region headings (each one a clue of rp1's skeleton,
	// each duplicate a diagnostic), placeholders beside text, scratch-pad
	// entries with and without a number,
	// sentences whose cue words speak for other sections (the interview
	// moves them there), VAL ids (references, cites).
	{"region-headings", lines("## Vision")},
	{"will-headings", lines("### Will")},
	{"mixed-placeholders", lines("- x _TBD_")},
	{"entry-headings", lines("### a")},
	{"numbered-entries", lines("### Q1: Problem")},
	{"cue-sentences", line("We measure success by the hours our users save. ", "")},
	{"val-ids", line("VAL-A-001 ", "")},
}

// A Place is one file of one charter family with a slot for a run: Files
// returns the project's files (path relative to the project → content)
// with run in the slot.
type Place struct {
	Name  string
	File  string
	Slots int // how many times the run appears
	Files func(run string) map[string]string
}

const (
	rp1Charter   = ".rp1/context/charter.md"
	piCharter    = ".pi/charters/big"
	chartersDir  = ".charters/20260101-000000-big"
	piState      = `{"charterId":"big","schemaVersion":"v2","name":"Big","objective":"x","status":"active","createdAt":"2026-11-09T12:00:00.000Z","updatedAt":"2026-11-12T16:30:00.000Z"}` + "\n"
	chartersDesc = `{"charterId":"20260101-000000-big","schemaVersion":"%s","objective":"x","status":"active","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}` + "\n"
)

// piFiles is a pi charter folder whose criteria.md, charter.md and
// REPORT.md are given.
func piFiles(criteria, charter, report string) map[string]string {
	return map[string]string{
		piCharter + "/criteria.md": criteria,
		piCharter + "/charter.md":  charter,
		piCharter + "/REPORT.md":   report,
		piCharter + "/state.json":  piState,
	}
}

const (
	piCriteria    = "# Criteria\n\n## m1 Milestone\n\n### VAL-A-001 — One\nVerifier: manual\nBecause: x\n"
	piCharterText = "# Charter: Big\n\n## Objective\n\nShip it.\n\n## Commands\n\ntest: go test ./...\n"
	piReport      = "# Big\n\n## Objective\n\nx\n\n## Outcome\n\nx\n\n## Notes\n\nx\n"
)

// chartersFiles is a .charters folder of schemaVersion schema.
func chartersFiles(schema, charter string) map[string]string {
	return map[string]string{
		chartersDir + "/charter.md": charter,
		chartersDir + "/state.json": fmt.Sprintf(chartersDesc, schema),
	}
}

// Places are the slots of every family: rp1 charters of both generations,
// pi's criteria.md, charter.md and REPORT.md, .charters charters of every
// era, and the JSON sidecars (the run as a string value).
var Places = []Place{
	{"rp1-section", rp1Charter, 1, func(run string) map[string]string {
		return map[string]string{rp1Charter: "# Project Charter: Big\n\n**Status**: Draft\n\n## Problem & Context\n\n" + run +
			"\n\n## Target Users\n\nCrew leads. They plan shifts.\n"}
	}},
	{"rp1-scratch-pad", rp1Charter, 1, func(run string) map[string]string {
		return map[string]string{rp1Charter: "# Project Charter: Big\n\n## Problem & Context\n\n_TBD_\n\n## Scratch Pad\n<!-- Mode: CREATE -->\n\n### Q1: Problem & Context\n**Asked**: Why?\n**Answer**: " + run +
			"\n\n<!-- End scratch pad -->\n"}
	}},
	{"rp1-skeleton", rp1Charter, 2, func(run string) map[string]string {
		return map[string]string{rp1Charter: "# Project Charter: Big\n\n**Status**: Draft\n\n## Vision\n" + run +
			"\n\n## Scope Guardrails\n\n### Will\n- " + run + "\n\n### Won't\n- _TBD_\n"}
	}},
	{"rp1-brain-dump", rp1Charter, 1, func(run string) map[string]string {
		// The title waits for a name, which the interview looks for in the
		// Brain Dump; each sentence of it goes to a section by its cues.
		return map[string]string{rp1Charter: "# Project Charter: [To Be Determined]\n\n## Problem & Context\n\n_TBD_\n\n## Scratch Pad\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: What are you building?\n**Answer**: " + run +
			"\n\n<!-- End scratch pad -->\n"}
	}},
	{"rp1-answer", rp1Charter, 1, func(run string) map[string]string {
		// An answer about two sections whose sentences may move to the
		// open ones.
		return map[string]string{rp1Charter: "# Project Charter: Big\n\n## Scratch Pad\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: What?\n**Answer**: A tool.\n\n### Q2: Target Users & Value Proposition\n**Asked**: Who, and why?\n**Answer**: " + run +
			"\n\n<!-- End scratch pad -->\n"}
	}},
	{"criteria-body", piCharter + "/criteria.md", 1, func(run string) map[string]string {
		return piFiles("# Criteria\n\n## m1 Milestone\n\n### VAL-A-001 — One\n"+run+"\nVerifier: manual\nBecause: x\n", piCharterText, piReport)
	}},
	{"criteria-heading", piCharter + "/criteria.md", 3, func(run string) map[string]string {
		return piFiles("# Criteria\n\n## m1 "+run+"\n\n### VAL-A-001 "+run+"\nVerifier: command\nCommand: "+run+"\n", piCharterText, piReport)
	}},
	{"pi-charter", piCharter + "/charter.md", 3, func(run string) map[string]string {
		return piFiles(piCriteria, "# Charter: Big\n\n## Objective\n\n"+run+"\n\n## Commands\n\ntest: "+run+"\n"+run+"\n", piReport)
	}},
	{"pi-report", piCharter + "/REPORT.md", 2, func(run string) map[string]string {
		return piFiles(piCriteria, piCharterText, "# Big\n\n## Objective\n\n"+run+"\n\n## Outcome\n\n"+run+"\n\n## Notes\n")
	}},
	{"pi-json", piCharter + "/criterion-state.json", 2, func(run string) map[string]string {
		files := piFiles(piCriteria, piCharterText, piReport)
		files[piCharter+"/criterion-state.json"] = `{"charterId":"big","criteria":{"VAL-A-001":{"outcome":"pass","lastSummary":` + jsonString(run) + `}}}`
		files[piCharter+"/work/m1/evidence/2026-01-01T00-00-00-000Z/evidence.json"] = `{"charterId":"big","criterionId":"VAL-A-001","outcome":"pass","summary":` +
			jsonString(run) + `,"source":"verifier","recordedBy":"agent:root","ts":"2026-01-01T00:00:00.000Z"}`
		return files
	}},
	{"charters-fi14", chartersDir + "/charter.md", 4, func(run string) map[string]string {
		return chartersFiles("file-interface", "# Charter: Big\n\n## Objective\n\n"+run+"\n\n## Criteria\n\n### C1. "+run+"\n"+run+"\nEvidence: "+run+"\n")
	}},
	{"charters-fi15", chartersDir + "/charter.md", 6, func(run string) map[string]string {
		return chartersFiles("file-interface", "# Charter: Big\n\n## Objective\n\n"+run+"\n\n## References\n\n- "+run+"\n\n## Criteria\n\n### C1. "+run+"\n"+run+"\nDepends: "+run+"\nStatus: pass — "+run+"\n")
	}},
	{"charters-command", chartersDir + "/charter.md", 1, func(run string) map[string]string {
		// The command verify runs, and whose weakness status reports.
		return chartersFiles("file-interface", "# Charter: Big\n\n## Objective\n\nDo.\n\n## Criteria\n\n### C1. One\nCommand: "+run+"\nStatus: pending\n")
	}},
	{"charters-phases", chartersDir + "/charter.md", 3, func(run string) map[string]string {
		return chartersFiles("phases", "# Objective\n\n"+run+"\n\n## Phases\n\n1. "+run+" — done\n   "+run+"\n2. x\n")
	}},
	{"charters-objective", chartersDir + "/charter.md", 3, func(run string) map[string]string {
		return chartersFiles("phases", "# Objective\n\n"+run+"\n\n## Scope\n\n"+run+"\n\n## Notes\n\n"+run+"\n")
	}},
	{"charters-json", chartersDir + "/state.json", 2, func(run string) map[string]string {
		return map[string]string{
			chartersDir + "/charter.md":   "# Objective\n\nShip it.\n",
			chartersDir + "/state.json":   `{"charterId":"20260101-000000-big","schemaVersion":"phases","objective":` + jsonString(run) + `,"status":"active","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}`,
			chartersDir + "/events.jsonl": `{"type":"charter_created","ts":"2026-01-01T00:00:00.000Z","charterId":"20260101-000000-big","objective":` + jsonString(run) + "}\n",
		}
	}},
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A Document is one attack: a project whose file File costs a parser the
// most, built at a size.
type Document struct {
	Name  string
	File  string
	Files func(size int) map[string]string
}

// Write writes d's project at size into dir and returns the attacked
// file's path.
func (d Document) Write(t testing.TB, dir string, size int) string {
	t.Helper()
	files := d.Files(size)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		write(t, filepath.Join(dir, filepath.FromSlash(name)), files[name])
	}
	return filepath.Join(dir, filepath.FromSlash(d.File))
}

// Documents are every run in every place, then the attacks of the whole
// file that no slot holds (many criteria, a long Depends line, deep JSON).
func Documents() []Document {
	var out []Document
	for _, p := range Places {
		for _, r := range Runs {
			out = append(out, Document{p.Name + "/" + r.Name, p.File, func(size int) map[string]string { return p.Files(r.Text(size / p.Slots)) }})
		}
	}
	return append(out, Whole...)
}

// Whole are the attacks that take a whole file.
var Whole = []Document{
	{"criteria/many-vals", piCharter + "/criteria.md", func(size int) map[string]string {
		var b strings.Builder
		b.WriteString("# Criteria\n\n## m1 Milestone\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "\n### VAL-A-%06d — Thing works\nx\n", i)
		}
		return piFiles(b.String(), piCharterText, piReport)
	}},
	{"criteria/duplicate-vals", piCharter + "/criteria.md", func(size int) map[string]string {
		return piFiles("# Criteria\n\n## m1 Milestone\n"+strings.Repeat("\n### VAL-A-001 — Thing works\nVerifier: manual\n", max(1, size/46)), piCharterText, piReport)
	}},
	{"criteria/many-milestones", piCharter + "/criteria.md", func(size int) map[string]string {
		var b strings.Builder
		b.WriteString("# Criteria\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "\n## m%d Milestone\n\n### VAL-M%d-001 — T\nVerifier: manual\nBecause: x\n", i, i)
		}
		return piFiles(b.String(), piCharterText, piReport)
	}},
	{"charters/unknown-depends", chartersDir + "/charter.md", func(size int) map[string]string {
		ids := make([]string, 0, size/8)
		for i := 0; len(ids)*8 < size; i++ {
			ids = append(ids, fmt.Sprintf("X%d", i))
		}
		return chartersFiles("file-interface", "# Charter: Big\n\n## Objective\n\nDo.\n\n## Criteria\n\n### C1. One\nDepends: "+strings.Join(ids, ", ")+"\nStatus: pending\n")
	}},
	{"charters/many-criteria", chartersDir + "/charter.md", func(size int) map[string]string {
		var b strings.Builder
		b.WriteString("# Charter: Big\n\n## Objective\n\nDo.\n\n## Criteria\n")
		for i := 1; b.Len() < size; i++ {
			fmt.Fprintf(&b, "\n### C%d. Criterion\nDepends: C%d, C%d\nStatus: pending\n", i, i+1, i/2+1)
		}
		return chartersFiles("file-interface", b.String())
	}},
	{"charters/criterion-events", chartersDir + "/events.jsonl", func(size int) map[string]string {
		// Decide reads the journal's criterion_changed events for the
		// generation that wrote them; references read each.
		files := chartersFiles("file-interface", "# Charter: Big\n\n## Objective\n\nDo.\n\n## Criteria\n\n### C1. One\nStatus: pending\n")
		files[chartersDir+"/events.jsonl"] = strings.Repeat(`{"type":"criterion_changed","ts":"2026-01-01T00:00:00.000Z","charterId":"20260101-000000-big","criterion":"C1","field":"status.value","old":"pending","new":"pass"}`+"\n", max(1, size/166))
		return files
	}},
	{"charters/many-snapshot-criteria", chartersDir + "/state.json", func(size int) map[string]string {
		files := chartersFiles("file-interface", "# Charter: Big\n\n## Objective\n\nDo.\n\n## Criteria\n\n### C1. One\nStatus: pending\n")
		var b strings.Builder
		b.WriteString(`{"charterId":"20260101-000000-big","schemaVersion":"file-interface","objective":"x","status":"active","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","criteriaSnapshot":[`)
		for i := 1; b.Len() < size; i++ {
			fmt.Fprintf(&b, `{"id":"C%d","title":"C1 and C%d","depends":["C1"],"status":{"value":"pass","note":"C1"},"statusSeq":%d},`, i, i, i)
		}
		b.WriteString(`{"id":"C0","title":"x","depends":[],"status":{"value":"pending","note":""},"statusSeq":0}]}`)
		files[chartersDir+"/state.json"] = b.String()
		return files
	}},
	{"charters/many-phases", chartersDir + "/charter.md", func(size int) map[string]string {
		var b strings.Builder
		b.WriteString("# Objective\n\nDo.\n\n## Phases\n\n")
		for i := 1; b.Len() < size; i++ {
			fmt.Fprintf(&b, "%d. Phase — done\n   note\n", i)
		}
		return chartersFiles("phases", b.String())
	}},
	{"charters/many-events", chartersDir + "/events.jsonl", func(size int) map[string]string {
		files := chartersFiles("phases", "# Objective\n\nDo.\n")
		files[chartersDir+"/events.jsonl"] = strings.Repeat(`{"type":"ralph_activated","ts":"2026-01-01T00:00:00.000Z","charterId":"20260101-000000-big","kind":"normal"}`+"\n", max(1, size/110))
		return files
	}},
	{"charters/deep-json", chartersDir + "/state.json", func(size int) map[string]string {
		files := chartersFiles("phases", "# Objective\n\nDo.\n")
		files[chartersDir+"/state.json"] = strings.Repeat("[", size)
		files[chartersDir+"/events.jsonl"] = strings.Repeat(`{"a":`, size/5) + "\n"
		return files
	}},
	{"pi/deep-json", piCharter + "/criterion-state.json", func(size int) map[string]string {
		files := piFiles(piCriteria, piCharterText, piReport)
		files[piCharter+"/criterion-state.json"] = `{"charterId":"big","criteria":` + strings.Repeat(`{"a":`, size/5)
		files[piCharter+"/state.json"] = strings.Repeat("[", size/2)
		return files
	}},
	{"pi/deep-json-links", piCharter + "/criterion-state.json", func(size int) map[string]string {
		// Valid JSON nested as deep as JSON.parse reads (10,000), as many
		// times as it fits: the editor asks for the file's links.
		depth := min(9000, max(1, size/12))
		one := strings.Repeat(`{"a":`, depth) + `"x"` + strings.Repeat("}", depth)
		parts := make([]string, max(1, size/len(one)))
		for i := range parts {
			parts[i] = fmt.Sprintf(`"VAL-A-%06d":%s`, i, one)
		}
		files := piFiles(piCriteria, piCharterText, piReport)
		files[piCharter+"/criterion-state.json"] = `{"charterId":"big","criteria":{` + strings.Join(parts, ",") + `}}`
		return files
	}},
	{"pi/code-cites", "src/cites_test.go", func(size int) map[string]string {
		// The project's code, which references and the cited-in lens read.
		files := piFiles(piCriteria, piCharterText, piReport)
		files["src/cites_test.go"] = "package x\n\n// " + strings.Repeat("VAL-A-001 ", max(1, size/20)) + "\n" + strings.Repeat("// VAL-A-001\n", max(1, size/26))
		return files
	}},
	{"rp1/brain-dump-beside-headings", rp1Charter, func(size int) map[string]string {
		// Every sentence of the Brain Dump is weighed against the
		// sections that are open, and a charter of many headings has many
		// sections to look through.
		return map[string]string{rp1Charter: "# Project Charter: Big\n\n" + strings.Repeat("## x\n", max(1, size/10)) +
			"\n## Scratch Pad\n<!-- Mode: CREATE -->\n\n### Q1: Brain Dump\n**Asked**: What?\n**Answer**: " + strings.Repeat("a. ", max(1, size/6)) + "\n\n<!-- End scratch pad -->\n"}
	}},
	{"pi/many-state-keys", piCharter + "/criterion-state.json", func(size int) map[string]string {
		var b strings.Builder
		b.WriteString(`{"charterId":"big","criteria":{`)
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, `"VAL-A-%06d":{"outcome":"pass"},`, i)
		}
		b.WriteString(`"VAL-A-001":{"outcome":"pass"}}}`)
		files := piFiles(piCriteria, piCharterText, piReport)
		files[piCharter+"/criterion-state.json"] = b.String()
		return files
	}},
}

// Lookup returns the document named name.
func Lookup(name string) (Document, bool) {
	for _, d := range Documents() {
		if d.Name == name {
			return d, true
		}
	}
	return Document{}, false
}

// FuzzRuns is the frame of the fuzz targets that look for more runs: it
// seeds f with units that made a parser do more than a constant amount of
// work per byte, in every Shape, and calls check with the run each input
// lays out (its unit Repeated up to 4096 times, so that an input stays
// under 64 KB and 500 of them take seconds); units empty or over 16 bytes
// are skipped.
func FuzzRuns(f *testing.F, check func(t *testing.T, run string)) {
	for _, u := range []string{">", "> ", "1. ", "- ", "> 1. - ", "[a](", "[a](<", "[", "[]", "![", "`a", "``a", "*a", "_a a* ",
		"<http://a", "<!--", "<!---->", "&#", `\`, "|", "TODO: ", "TBD ", "[your x", "{A", "<insert ", "```", "~~~", "## a", "### C1. x",
		"Status: pass", "Depends: C1, x, ", "a: ", "\r", "é", "### VAL-A-1 x", "Verifier: command"} {
		for shape := range uint8(3) {
			f.Add(u, uint16(1000), shape)
		}
	}
	f.Fuzz(func(t *testing.T, unit string, n uint16, shape uint8) {
		if unit == "" || len(unit) > 16 {
			return
		}
		check(t, Repeat(unit, int(n)%4097, Shape(shape)))
	})
}

// AllocBound is the most a check of size bytes of text may allocate: 1 KB a
// byte, and 4 MB besides. ok is false under the race detector, which
// disables sync.Pool so that allocations say little (each regular
// expression match allocates its machine anew).
func AllocBound(size int) (bound uint64, ok bool) {
	return 1024*uint64(size) + 4<<20, !testfixture.Race
}
