package interview

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
// per section (answers, cue sentences, or the charter's own text), from which
// placeholders are filled.
func Question(id rp1.SectionID, material map[rp1.SectionID][]string) string {
	q := Templates[id]
	if id != rp1.ValueProp {
		return q
	}
	users := usersClause(material[rp1.Users])
	problem := problemClause(material[rp1.Problem])
	switch {
	case users != "" && problem != "":
		return "For " + users + " dealing with " + problem + ", what unique value does your solution provide? How is it better than alternatives?"
	case users != "":
		return "For " + users + ", what unique value does your solution provide? How is it better than alternatives?"
	case problem != "":
		return "For users dealing with " + problem + ", what unique value does your solution provide? How is it better than alternatives?"
	}
	return "What unique value does your solution provide? How is it better than alternatives?"
}

// userLeadIns are openings stripped from a users sentence so that what is
// left names the users ("The people using it are the on-call engineers…"
// becomes "the on-call engineers…").
var userLeadIns = []string{
	"the people using it are ", "the people who use it are ", "the users are ",
	"our users are ", "users are ", "the primary users are ", "primary users are ",
	"our primary users are ", "the main users are ", "it is for ", "it's for ",
	"this is for ", "we are building it for ", "we're building it for ", "for ",
}

// usersClause shortens the sentence that best names the users to a clause:
// one opening with a lead-in ("The people using it are …"), else the part
// of a cued sentence after " for " ("a handbook for small teams"), else the
// first cued sentence.
func usersClause(texts []string) string {
	var fallback string
	for _, t := range texts {
		for _, s := range Sentences(t) {
			lower := strings.ToLower(s)
			for _, lead := range userLeadIns {
				if strings.HasPrefix(lower, lead) {
					return clause(s[len(lead):], 16)
				}
			}
			if fallback == "" && rp1.Addresses(s, rp1.Users) {
				fallback = s
				if i := strings.LastIndex(lower, " for "); i >= 0 && rp1.Addresses(s[i:], rp1.Users) {
					fallback = s[i+len(" for "):]
				}
			}
		}
	}
	if fallback == "" {
		fallback = firstCued(texts, rp1.Users)
	}
	if fallback == "" {
		return ""
	}
	return clause(fallback, 16)
}

// problemClause quotes a shortened problem sentence (a quoted clause reads
// well whatever its grammar). Only a sentence with a problem cue will do:
// a Brain Dump's first sentence is usually the product, not the problem.
func problemClause(texts []string) string {
	for _, t := range texts {
		for _, s := range Sentences(t) {
			if rp1.Addresses(s, rp1.Problem) {
				return "“" + clause(s, 16) + "”"
			}
		}
	}
	return ""
}

// firstCued is the first sentence carrying a cue for id, else the first
// sentence at all.
func firstCued(texts []string, id rp1.SectionID) string {
	var first string
	for _, t := range texts {
		for _, s := range Sentences(t) {
			if first == "" {
				first = s
			}
			if rp1.Addresses(s, id) {
				return s
			}
		}
	}
	return first
}

// clauseBreaks end a clause inside a sentence.
var clauseBreaks = []string{",", ";", ":", "(", " - ", " — ", " so ", " because ", " which "}

// clauseOpeners are time adverbs dropped from the front of a clause.
var clauseOpeners = []string{"right now ", "today ", "currently ", "at the moment ", "nowadays "}

// clause cuts a sentence at its first clause break and to at most maxWords
// words (marking a cut with "…"), drops a leading time adverb and the final
// punctuation, and lower-cases the first letter unless the first word looks
// like a name or acronym.
func clause(s string, maxWords int) string {
	s = strings.Join(strings.Fields(s), " ")
	for _, b := range clauseBreaks {
		if i := strings.Index(s, b); i > 0 {
			s = s[:i]
		}
	}
	for _, o := range clauseOpeners {
		if len(s) > len(o) && strings.EqualFold(s[:len(o)], o) {
			s = s[len(o):]
			break
		}
	}
	words := strings.Fields(s)
	cut := len(words) > maxWords
	if cut {
		words = words[:maxWords]
	}
	s = strings.TrimRight(strings.Join(words, " "), ".!?\"' ")
	if len(words) > 0 && !looksLikeName(words[0]) {
		r, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToLower(r)) + s[n:]
	}
	if cut {
		s += "…"
	}
	return s
}

// looksLikeName: a word with a capital after its first letter (API, GitHub)
// or a lone "I".
func looksLikeName(w string) bool {
	if w == "I" {
		return true
	}
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// Sentences splits text into sentences: paragraph lines are joined, list
// items and lines of a different block stand alone, and a sentence ends at
// ".", "!" or "?" followed by a space. Leading list markers are dropped.
func Sentences(text string) []string {
	var out []string
	var para []string
	flush := func() {
		if len(para) == 0 {
			return
		}
		joined := strings.Join(para, " ")
		para = para[:0]
		start := 0
		for i := 0; i < len(joined); i++ {
			c := joined[i]
			if (c == '.' || c == '!' || c == '?') && (i+1 == len(joined) || joined[i+1] == ' ') {
				if s := strings.TrimSpace(joined[start : i+1]); s != "" {
					out = append(out, s)
				}
				start = i + 1
			}
		}
		if s := strings.TrimSpace(joined[start:]); s != "" {
			out = append(out, s)
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			flush()
			continue
		}
		if item, ok := listItem(t); ok {
			flush()
			para = append(para, item)
			flush()
			continue
		}
		para = append(para, t)
	}
	flush()
	return out
}

// listItem strips a "- ", "* ", "+ " or "1. " marker.
func listItem(t string) (string, bool) {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return strings.TrimSpace(t[2:]), true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return strings.TrimSpace(t[i+2:]), true
	}
	return "", false
}
