package interview

import (
	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// BrainDumpTopic is the topic of Q1 in CREATE mode.
const BrainDumpTopic = "Brain Dump"

// BrainDumpQuestion is Q1 in CREATE mode, as upstream asks it.
const BrainDumpQuestion = "Tell me everything about this project. What are you building? Why? Who is it for? What problem does it solve? " +
	"Don't worry about structure - just dump your thoughts. I'll organize them."

// Topics are the entry topics written for each section's question (SPEC §1).
var Topics = map[rp1.SectionID]string{
	rp1.Problem:   "Problem & Context",
	rp1.Users:     "Target Users",
	rp1.ValueProp: "Value Proposition",
	rp1.Scope:     "Scope",
	rp1.Success:   "Success Criteria",
}

// Templates are upstream's targeted questions. Only value_prop references
// earlier answers by placeholder ("For [users] dealing with [problem], …");
// Question fills it, or drops the clause when there is nothing to fill it with.
var Templates = map[rp1.SectionID]string{
	rp1.Problem:   "What specific problem does this address? Why is it painful? Why solve it now?",
	rp1.Users:     "Who are the primary users? What are they trying to accomplish? What's their current workflow?",
	rp1.ValueProp: "For [users] dealing with [problem], what unique value does your solution provide? How is it better than alternatives?",
	rp1.Scope:     "What's in scope for v1? What's explicitly NOT in scope to keep focus?",
	rp1.Success:   "How will you measure success? What metrics matter? What would make this a failure?",
}

// Question is the text asked about section id; material holds what is known
// per section (what the answers say, or the charter's own text), from which
// the value question's [users] and [problem] are filled.
//
// A fill is a short noun phrase ("product managers and team leads",
// "out-of-date printed tables"), never a raw sentence, markdown, or the same
// words twice; when no such phrase can be found the clause is left out, and
// with neither the plain template is asked.
func Question(id rp1.SectionID, material map[rp1.SectionID][]string) string {
	q := Templates[id]
	if id != rp1.ValueProp {
		return q
	}
	users := usersPhrase(material[rp1.Users])
	problem := problemPhrase(material[rp1.Problem])
	if users != "" && problem != "" && overlaps(users, problem) {
		problem = ""
	}
	const rest = "what unique value does your solution provide? How is it better than alternatives?"
	switch {
	case users != "" && problem != "":
		return "For " + users + " dealing with " + problem + ", " + rest
	case users != "":
		return "For " + users + ", " + rest
	case problem != "":
		return "For people dealing with " + problem + ", " + rest
	}
	return "What unique value does your solution provide? How is it better than alternatives?"
}

// Sentences splits text into sentences (rp1.SplitSentences), as plain
// strings.
func Sentences(text string) []string {
	var out []string
	for _, s := range rp1.SplitSentences(text) {
		out = append(out, s.Text)
	}
	return out
}
