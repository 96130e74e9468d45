package interview

import (
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// covered is a CREATE scratch pad whose answers cover every section.
func covered(title, brainDump string, extra ...string) []byte {
	entries := []string{
		"### Q1: Brain Dump\n**Asked**: Tell me.\n**Answer**: " + brainDump,
		"### Q2: Value Proposition\n**Asked**: Why?\n**Answer**: A rota is drafted in minutes. Conflicts are flagged early.",
		"### Q3: Scope\n**Asked**: Scope?\n**Answer**: Rota drafting is in. Payroll stays out.",
		"### Q4: Success Criteria\n**Asked**: Success?\n**Answer**: A rota takes ten minutes. Managers accept it.",
	}
	return []byte("# Project Charter: " + title + "\n\n**Version**: 1.0.0\n**Status**: Draft\n\n## Scratch Pad\n\n<!-- Mode: CREATE -->\n\n" +
		strings.Join(append(entries, extra...), "\n\n") + "\n\n<!-- End scratch pad -->\n")
}

const rotaDump = "Planning café rotas by hand is slow. Café managers juggle shift workers' availability."

// TestProjectNameQuestion: the name question comes only when every section
// is covered, the title waits for a name the Brain Dump did not give, and
// the budget has room; it is asked once, and its answer titles the charter.
func TestProjectNameQuestion(t *testing.T) {
	const path = "/p/rotas/.rp1/context/charter.md"
	cases := []struct {
		name    string
		text    []byte
		opts    Options
		typ     string
		topic   string
		title   string // Response.Title on success
		message string
	}{
		{name: "no name anywhere: asked as Q5", text: covered("[To Be Determined]", rotaDump),
			typ: TypeNextQuestion, topic: rp1.ProjectNameTopic},
		{name: "named in the Brain Dump: no question", text: covered("[To Be Determined]", "We're building Rotawise. "+rotaDump),
			typ: TypeSuccess, title: "Rotawise", message: msgComplete},
		{name: "the title has it: no question, the title stays", text: covered("Rotas", rotaDump),
			typ: TypeSuccess, title: "", message: msgComplete},
		{name: "answered", text: covered("[To Be Determined]", rotaDump, "### Q5: Project Name\n**Asked**: ?\n**Answer**: Rotawise"),
			typ: TypeSuccess, title: "Rotawise"},
		{name: "declined: not asked again, the folder names it", text: covered("[To Be Determined]", rotaDump, "### Q5: Project Name\n**Asked**: ?\n**Answer**: no idea yet"),
			opts: Options{Path: path}, typ: TypeSuccess, title: "rotas"},
		{name: "no budget left: the folder names it", text: covered("[To Be Determined]", rotaDump),
			opts: Options{Budget: 4, Path: path}, typ: TypeSuccess, title: "rotas", message: msgComplete},
		{name: "no budget left and no .rp1 folder: the title stays", text: covered("[To Be Determined]", rotaDump),
			opts: Options{Budget: 4, Path: "/p/rotas/charter.md"}, typ: TypeSuccess, title: ""},
		{name: "finish now does not ask", text: covered("[To Be Determined]", rotaDump),
			opts: Options{FinishNow: true, Path: path}, typ: TypeSuccess, title: "rotas", message: msgComplete},
		{name: "UPDATE of a written charter whose title waits for a name",
			text: []byte("# Project Charter: [To Be Determined]\n\n## Problem & Context\n\nA. B.\n\n## Target Users\n\nC. D.\n\n" +
				"## Business Rationale\n\nE. F.\n\n## Scope Guardrails\n\nG. H.\n\n## Success Criteria\n\nI. J.\n"),
			typ: TypeNextQuestion, topic: rp1.ProjectNameTopic},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Next(c.text, true, c.opts)
			if r.Type != c.typ || r.Topic != c.topic && c.typ == TypeNextQuestion || r.Title != c.title && c.typ == TypeSuccess {
				t.Fatalf("got %s %q title %q (%s)", r.Type, r.Topic, r.Title, r.Message)
			}
			if c.message != "" && r.Message != c.message {
				t.Errorf("message %q, want %q", r.Message, c.message)
			}
			if r.Type == TypeNextQuestion && (r.NextQuestion != ProjectNameQuestion || len(r.Metadata.GapsRemaining) != 0) {
				t.Errorf("question %q gaps %v", r.NextQuestion, r.Metadata.GapsRemaining)
			}
		})
	}
}

// TestFinishWritesTheTitle: finishing replaces a placeholder title with the
// name, and never a real title.
func TestFinishWritesTheTitle(t *testing.T) {
	for _, c := range []struct{ title, name, want string }{
		{"[To Be Determined]", "Rotawise", "# Project Charter: Rotawise\n"},
		{"{Project Name}", "Rotawise", "# Project Charter: Rotawise\n"},
		{"Rotas", "Rotawise", "# Project Charter: Rotas\n"},
		{"[To Be Determined]", "", "# Project Charter: [To Be Determined]\n"},
	} {
		text := covered(c.title, rotaDump)
		r := Next(text, true, Options{Budget: 4})
		r.Title = c.name
		p, err := Finish(text, r, testNow)
		if err != nil {
			t.Fatal(err)
		}
		got := string(Apply(text, p.Edits))
		if !strings.HasPrefix(got, c.want) || !strings.Contains(got, "**Status**: Complete") {
			t.Errorf("%q with name %q:\n%s", c.title, c.name, got)
		}
	}
}
