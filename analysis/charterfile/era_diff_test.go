package charterfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
)

// The differential against pi-charter's own parsers. testdata/upstream/
// era-verdicts.jsonl.gz holds, for every folder genEraCases(eraSeed, eraCount)
// makes, what each of upstream's four charter.md parsers returned for its
// text (charter-file.ts at 11ebdca7, 494a765e, 72dd53d8 and the ADR-0018
// one), run in Node; docs/pi-charter-reading.md says how to record it
// again. The test regenerates the folders and checks:
//
//  1. each of our four parsers returns exactly what upstream's parser of
//     that generation returned (every folder);
//  2. where state.json and events.jsonl say which file-interface
//     generation wrote them, Decide picks it;
//  3. a charter of the Objective family that today's pi-charter (ADR-0018)
//     reads without a warning gets no warning of upstream's from the
//     reading Decide picks, no phases-section-missing, and no
//     notes-in-objective unless the journal says a phases-era pi-charter
//     kept it.
const (
	eraSeed  = 20261020
	eraCount = 480
)

// eraVerdict is one line of era-verdicts.jsonl: the text's SHA-256 (so a
// changed generator is caught) and upstream's reading by each parser.
type eraVerdict struct {
	ID      string                         `json:"id"`
	SHA256  string                         `json:"sha256"`
	Parsers map[Generation]json.RawMessage `json:"parsers"`
}

func TestEraDifferential(t *testing.T) {
	cases := genEraCases(eraSeed, eraCount)
	if p := os.Getenv("ERA_CORPUS_WRITE"); p != "" {
		writeEraCorpus(t, p, cases)
	}
	verdicts := loadEraVerdicts(t)
	if len(verdicts) != len(cases) {
		t.Fatalf("%d verdicts for %d cases: record them again (docs/pi-charter-reading.md)", len(verdicts), len(cases))
	}
	var grammar, era, phases, said, objClean int
	for _, c := range cases {
		v, ok := verdicts[c.ID]
		sum := sha256.Sum256([]byte(c.Charter))
		if !ok || v.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("%s: the generated text is not the one upstream's verdicts were recorded for: record them again (docs/pi-charter-reading.md)", c.ID)
		}
		for _, g := range []Generation{FI14, FI15, PH, OBJ} {
			ours, theirs := upstreamShape(Parse(g, []byte(c.Charter))), decodeAny(t, v.Parsers[g])
			if !reflect.DeepEqual(ours, theirs) {
				grammar++
				if grammar <= 5 {
					t.Errorf("%s (%s text): our %s parser disagrees with upstream's:\nours   %s\ntheirs %s\ntext:\n%s", c.ID, c.Written, g, jsonOf(ours), v.Parsers[g], c.Charter)
				}
			}
		}
		d := LoadDir(vfs.OS, c.folder().write(t))
		if c.Says != "" {
			said++
			if d.Era.Generation != c.Says {
				era++
				t.Errorf("%s: state.json and events.jsonl say %s, read as %s: %v\nstate %v\nevents %v", c.ID, c.Says, d.Era.Generation, d.Era.Strings(), ptr(c.State), ptr(c.Events))
			}
		}
		var objWarnings []any
		if m, ok := decodeAny(t, v.Parsers[OBJ]).(map[string]any); ok {
			objWarnings, _ = m["warnings"].([]any)
		}
		if d.Era.Generation.FileInterface() || len(objWarnings) > 0 {
			continue
		}
		objClean++
		journal := c.Events != nil && strings.Contains(*c.Events, `"charter_file_changed"`)
		var bad []string
		for _, w := range d.Charter.Warnings {
			bad = append(bad, "upstream: "+w.Text)
		}
		for _, ds := range Check(d) {
			for _, dg := range ds {
				if dg.Code == diag.PhasesSectionMissing || dg.Code == diag.NotesInObjective && !journal {
					bad = append(bad, dg.Code.String()+": "+dg.Message)
				}
			}
		}
		if len(bad) > 0 {
			phases++
			t.Errorf("%s: today's pi-charter reads it without a warning; read as %s, it gets %q\n%s", c.ID, d.Era.Generation, bad, c.Charter)
		}
	}
	t.Logf("%d folders: %d parser readings compared with upstream's, %d differ; %d folders whose sidecars say the generation, %d read otherwise; %d Objective-family charters today's pi-charter reads cleanly, %d given a phases-era warning",
		len(cases), 4*len(cases), grammar, said, era, objClean, phases)
	if grammar > 5 {
		t.Errorf("%d parser readings differ from upstream's (the first 5 shown)", grammar)
	}
}

func ptr(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}

// folder is the case as files.
func (c eraCase) folder() folder {
	f := folder{files: map[string]string{CharterFile: c.Charter}}
	if c.State != nil {
		f.files[StateFile] = *c.State
	}
	if c.Events != nil {
		f.files[EventsFile] = *c.Events
	}
	return f
}

// upstreamShape is our reading in the shape upstream's parser of its
// generation returns (ParsedCharterFile at each commit), decoded from JSON
// as upstream's is.
func upstreamShape(c *Charter) any {
	warnings := []string{}
	for _, w := range c.Warnings {
		warnings = append(warnings, w.Text)
	}
	var out map[string]any
	switch c.Generation {
	case FI14, FI15:
		criteria := []map[string]any{}
		for _, cr := range c.Criteria {
			deps := cr.Depends
			if deps == nil {
				deps = []string{}
			}
			m := map[string]any{"id": cr.ID, "title": cr.Title, "body": cr.Body, "depends": deps, "line": cr.Line}
			if c.Generation == FI14 {
				m["evidence"] = map[string]any{"status": cr.Status, "note": cr.Note}
			} else {
				m["status"] = map[string]any{"value": cr.Status, "note": cr.Note}
			}
			criteria = append(criteria, m)
		}
		out = map[string]any{"objective": c.Objective.Text, "criteria": criteria, "openEnded": len(c.Criteria) == 0, "warnings": warnings}
		if c.Generation == FI15 {
			out["references"], out["scope"] = c.References.Text, c.Scope.Text
		}
	case PH:
		phases := []map[string]any{}
		for _, p := range c.Phases {
			phases = append(phases, map[string]any{"number": p.Number, "title": p.Title, "status": p.Status, "body": p.Body})
		}
		out = map[string]any{"objective": c.Objective.Text, "references": c.References.Text, "scope": c.Scope.Text, "phases": phases, "warnings": warnings}
	default:
		out = map[string]any{"objective": c.Objective.Text, "references": c.References.Text, "scope": c.Scope.Text, "notes": c.Notes, "warnings": warnings}
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

func decodeAny(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("verdict %s: %v", raw, err)
	}
	return v
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func loadEraVerdicts(t *testing.T) map[string]eraVerdict {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "upstream", "era-verdicts.jsonl.gz"))
	if err != nil {
		t.Fatalf("%v: record upstream's verdicts (docs/pi-charter-reading.md)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]eraVerdict{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v eraVerdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("era-verdicts.jsonl.gz: %v", err)
		}
		out[v.ID] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeEraCorpus writes the cases' texts, one JSON object a line, for the
// Node run that records upstream's verdicts.
func writeEraCorpus(t *testing.T, path string, cases []eraCase) {
	t.Helper()
	var b bytes.Buffer
	for _, c := range cases {
		line, err := json.Marshal(map[string]string{"id": c.ID, "charter": c.Charter})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %d cases to %s\n", len(cases), path)
}
