package status_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/status"
)

// schemaID is docs/status.schema.json's $id.
const schemaID = "https://github.com/charter-lsp/charter-lsp/blob/main/docs/status.schema.json"

// compileSchema compiles docs/status.schema.json, or one of its $defs.
func compileSchema(t *testing.T, def string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../docs/status.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	url := schemaID
	if def != "" {
		url += "#/$defs/" + def
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validate checks that v, as encoding/json writes it, is valid.
func validate(t *testing.T, s *jsonschema.Schema, what string, v any) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s does not match docs/status.schema.json: %v", what, err)
	}
}

// The schema tells the truth about real output: statuses of charters in
// every state the fixtures and a few odd folders give, what charter.status
// answers, and what charter.valAt answers for each VAL.
func TestOutputMatchesSchema(t *testing.T) {
	now := mustTime(t, "2026-11-13T12:00:00Z")
	_, fixture := fixtureProject(t)
	odd := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(odd, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".pi/charters/empty/criteria.md", "")
	write(".pi/charters/paused/state.json", `{"charterId":"paused","status":"paused","objective":"x"}`)
	write(".pi/charters/flat/criteria.md", "# Criteria\n\n### VAL-A-1 — A holds\nVerifier: manual\n\n### VAL-B-1 — B holds\nVerifier: command\nCommand: go test ./...\nFresh evidence required: yes\n")
	write(".pi/charters/flat/work/_charter/evidence/s/evidence.json", `{"criterionId":"VAL-A-1","outcome":"pass","summary":"ok","ts":"not a time","source":"manual"}`)
	write(".pi/charters/flat/work/_charter/evidence/t/evidence.json", `{not json`)
	write(".pi/charters/flat/criterion-state.json", `{"charterId":"flat","criteria":{"VAL-B-1":{"outcome":"fail","lastTs":"2026-11-01T00:00:00.000Z","lastSummary":"x","lastEvidencePath":"work/x/evidence.json"}},"lastToolWriteAt":"2026-01-01T00:00:00.000Z"}`)
	write("src/a.go", "package a\n")

	dirs := []string{
		fixture,
		"../examples/pi-project/.pi/charters/csv-export",
		"../editors/e2e/testdata/workspace/.pi/charters/auth-rework",
		filepath.Join(odd, ".pi/charters/empty"),
		filepath.Join(odd, ".pi/charters/paused"),
		filepath.Join(odd, ".pi/charters/flat"),
	}
	list := compileSchema(t, "")
	valAt := compileSchema(t, "VALAt")
	var all []*status.Status
	for _, dir := range dirs {
		view := pi.NewView(vfs.OS, pi.LoadDir(vfs.OS, dir), pi.NewSourceClock("mtime", vfs.OS, []string{"src"}))
		st := status.Of(view, now)
		all = append(all, st)
		for _, c := range st.Criteria {
			va := status.VALOf(view, c.CriterionID, now)
			if va == nil {
				t.Errorf("%s: no VALAt for %s", dir, c.CriterionID)
				continue
			}
			validate(t, valAt, dir+" "+c.CriterionID, va)
		}
	}
	validate(t, list, "the statuses", all)
	validate(t, compileSchema(t, "Report"), "charter.status's answer", status.Report{Charters: all, Markdown: status.Markdown(all)})
	validate(t, compileSchema(t, "Report"), "charter.status's answer for no charter", status.Report{Charters: []*status.Status{}})

	// The schema is strict: a field it does not declare, or a list sent as
	// null, is an error.
	raw, _ := json.Marshal(all[0])
	decoded, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	st := decoded.(map[string]any)
	if err := list.Validate([]any{st}); err != nil {
		t.Fatalf("as decoded: %v", err)
	}
	st["blockers"] = []any{}
	if err := list.Validate([]any{st}); err == nil {
		t.Error("an undeclared field passed")
	}
	delete(st, "blockers")
	st["milestones"] = nil
	if err := list.Validate([]any{st}); err == nil {
		t.Error("milestones: null passed")
	}
}
