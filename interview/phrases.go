package interview

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// The value question ("For [users] dealing with [problem], …") references
// earlier answers. Answers are free text, often markdown; what goes into the
// template must read as a noun phrase. These helpers find one, or give up.

const maxPhraseWords = 8

var (
	// codeRe: inline code, removed before reading (rp1.StripInline removes
	// the rest of the inline markdown).
	codeRe = regexp.MustCompile("`[^`\n]*`")
	// parenRe: a parenthetical, dropped from labels ("Endless loops (\"let me
	// revise\")" → "Endless loops").
	parenRe = regexp.MustCompile(`\s*\([^()\n]*\)`)
	// boldLabelRe: a bold label opening a line or list item ("**Individual
	// Developers**", "- **Human developers** who use the CLI").
	boldLabelRe = regexp.MustCompile(`^(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]+?)\*\*:?`)
)

// plainText strips inline markdown from one line.
func plainText(s string) string {
	return rp1.StripInline(codeRe.ReplaceAllString(s, ""))
}

// pronouns open a clause, not a noun phrase ("I want a tool…", "We schedule
// about 300 volunteers…").
var pronouns = map[string]bool{"i": true, "we": true, "we're": true, "you": true, "they": true, "it": true, "it's": true,
	"this": true, "that": true, "these": true, "those": true, "there": true, "he": true, "she": true, "who": true, "what": true}

// objectPronouns point back at something said before ("half of them"): a
// phrase holding one means nothing on its own.
var objectPronouns = map[string]bool{"them": true, "us": true, "him": true, "her": true, "me": true}

// verbs that make a phrase a clause. A heuristic word list, not a parser:
// a phrase holding one is not used.
var verbs = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "am": true, "isn't": true, "aren't": true,
	"do": true, "does": true, "did": true, "don't": true, "doesn't": true, "has": true, "have": true, "had": true,
	"can": true, "cannot": true, "can't": true, "will": true, "won't": true, "would": true, "should": true, "could": true, "must": true, "may": true, "might": true,
	"want": true, "wants": true, "need": true, "needs": true, "get": true, "gets": true, "go": true, "goes": true,
	"take": true, "takes": true, "make": true, "makes": true, "use": true, "uses": true, "live": true, "lives": true,
	"run": true, "runs": true, "keep": true, "keeps": true, "lose": true, "loses": true, "kill": true, "kills": true,
	"build": true, "builds": true, "spend": true, "spends": true, "waste": true, "wastes": true,
	"require": true, "requires": true, "rely": true, "relies": true, "lack": true, "lacks": true, "fail": true, "fails": true,
	"know": true, "knows": true, "work": true, "works": true, "try": true, "tries": true,
	"say": true, "says": true, "think": true, "thinks": true, "start": true, "starts": true, "become": true, "becomes": true,
	"surface": true, "surfaces": true, "happen": true, "happens": true, "reconcile": true, "reconciles": true,
}

// usersPhrase names the users in a few words: the first two short bold or
// table labels of a users answer ("individual developers and development
// teams"), else the noun phrase a users sentence opens with ("Product managers
// and team leads in companies…" → "product managers and team leads"),
// after a lead-in such as "The people using it are". "" when there is none.
func usersPhrase(texts []string) string {
	var labels []string
	for _, strong := range []bool{true, false} {
		for _, t := range texts {
			for _, l := range labelsOf(t, strong) {
				if np := nounPhrase(cutClause(l), 4); np != "" && (rp1.Addresses(np, rp1.Users) || plural(np)) {
					labels = append(labels, np)
				}
			}
		}
		if len(labels) >= 2 {
			return tidyCase(labels[0] + " and " + labels[1])
		}
	}
	for _, t := range texts {
		for _, s := range rp1.SplitSentences(t) {
			line := plainText(s.Text)
			if strings.HasSuffix(line, ":") {
				continue // "Two primary user groups:" introduces a list
			}
			lower := strings.ToLower(line)
			for _, lead := range userLeadIns {
				if strings.HasPrefix(lower, lead) {
					line = line[len(lead):]
					break
				}
			}
			np := nounPhrase(beforeVerb(cutClause(line)), maxPhraseWords)
			if np != "" && (rp1.Addresses(np, rp1.Users) || plural(np)) {
				return tidyCase(np)
			}
		}
	}
	if len(labels) == 1 {
		return tidyCase(labels[0])
	}
	return ""
}

// beforeVerb keeps the words before the first verb of the list ("Support
// agents are overloaded" → "Support agents"); a phrase that starts with one
// is returned whole, for nounPhrase to refuse.
func beforeVerb(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if i > 0 && verbs[strings.ToLower(strings.Trim(w, `,.;:"'“”`))] {
			return strings.Join(words[:i], " ")
		}
	}
	return s
}

// userLeadIns open a sentence that then names the users.
var userLeadIns = []string{
	"the people using it are ", "the people who use it are ", "the users are ", "our users are ",
	"users are ", "the primary users are ", "primary users are ", "our primary users are ",
	"the main users are ", "it is for ", "it's for ", "this is for ", "we are building it for ",
	"we're building it for ", "we build it for ", "built for ", "for ", "primary: ", "primary users: ",
}

// problemPhrase names the problem in a few words: a short list item (or
// bold label) of the problem text ("endless refinement loops"), else the subject
// of a sentence that says what is wrong with it ("Printed tables are out of
// date" → "out-of-date printed tables"; "the manual process will not scale"
// → "the manual process"), else what people struggle with. "" when there is
// none.
func problemPhrase(texts []string) string {
	for _, t := range texts {
		for _, l := range append(labelsOf(t, false), labelsOf(t, true)...) { // items name problems, bold labels often group them
			if np := nounPhrase(l, 5); np != "" && !genericLabels[strings.ToLower(np)] && len(strings.Fields(np)) >= 2 {
				return tidyCase(np)
			}
		}
	}
	for _, t := range texts {
		for _, s := range rp1.SplitSentences(t) {
			if np := problemOf(plainText(s.Text)); np != "" {
				return np
			}
		}
	}
	return ""
}

// genericLabels head a part of a section rather than naming anything.
var genericLabels = map[string]bool{"problem": true, "context": true, "why now": true, "why it's painful": true,
	"expanded context": true, "the problem": true, "pain points": true, "current workflow pain points": true, "key pain points": true}

var (
	// predicateRe: "X is|are <what is wrong>", the subject before it.
	predicateRe = regexp.MustCompile(`(?i)^(.+?)\s+(?:is|are|get|gets|go|goes|keep getting|become|becomes)\s+(?:often\s+|always\s+|usually\s+|frequently\s+)?(out of date|outdated|out-of-date|slow|scattered|lost|manual|broken|fragile|inconsistent|expensive|costly|error[- ]prone|tedious|painful|unreliable|guesswork|missing|stale|hard to \w+|difficult to \w+|time[- ]consuming)\b`)
	// failRe: "X will not scale", "X doesn't work".
	failRe = regexp.MustCompile(`(?i)^(.+?)\s+(?:will not|won't|does not|doesn't|do not|don't|cannot|can't|no longer)\s+(?:scale|work|keep up)\b`)
	// struggleRe: "… struggle with X", "… suffer from X", "tired of X".
	struggleRe = regexp.MustCompile(`(?i)\b(?:struggl(?:e|es|ing)|suffer(?:s|ing)?|deal(?:s|ing)?|fed up|tired|frustrated)\s+(?:with|from|of|by)\s+(.+)$`)
	// openers dropped from the front of a subject.
	openerRe = regexp.MustCompile(`(?i)^(?:right now|today|currently|at the moment|nowadays|unfortunately|but|and|so),?\s+`)
)

// adjectiveFirst are predicates that read well before the subject.
var adjectiveFirst = map[string]string{"out of date": "out-of-date", "outdated": "outdated", "out-of-date": "out-of-date",
	"slow": "slow", "scattered": "scattered", "lost": "lost", "manual": "manual", "broken": "broken", "fragile": "fragile",
	"inconsistent": "inconsistent", "expensive": "expensive", "costly": "costly", "stale": "stale", "unreliable": "unreliable",
	"error-prone": "error-prone", "error prone": "error-prone", "tedious": "tedious", "missing": "missing"}

func problemOf(sentence string) string {
	for _, line := range clauseRe.Split(sentence, -1) {
		if np := problemOfClause(line); np != "" {
			return np
		}
	}
	return ""
}

// clauseRe splits a sentence into clauses: "A provider doubles the volume,
// so the manual process will not scale" → the second says what breaks;
// "People kill houseplants because watering schedules are guesswork" → the
// reason is the problem.
var clauseRe = regexp.MustCompile(`(?i),?\s+(?:because|since|so|but|and|while|as)\s+|[,;]\s+`)

func problemOfClause(line string) string {
	line = openerRe.ReplaceAllString(strings.TrimSpace(line), "")
	if m := predicateRe.FindStringSubmatch(line); m != nil {
		subj := nounPhrase(m[1], 5)
		if subj == "" {
			return ""
		}
		// An adjective goes before a plain noun phrase ("out-of-date printed
		// tables"), not before an activity ("planning rotas by hand").
		activity := strings.HasSuffix(strings.ToLower(strings.Fields(subj)[0]), "ing")
		if adj, ok := adjectiveFirst[strings.ToLower(m[2])]; ok && !activity && !strings.Contains(strings.ToLower(subj), adj) {
			det, noun := splitDeterminer(lowerFirst(subj))
			return tidyCase(det + adj + " " + noun)
		}
		if len(strings.Fields(subj)) >= 2 {
			return tidyCase(subj)
		}
		return ""
	}
	if m := failRe.FindStringSubmatch(line); m != nil {
		if np := nounPhrase(m[1], 5); len(strings.Fields(np)) >= 2 {
			return tidyCase(np)
		}
	}
	if m := struggleRe.FindStringSubmatch(line); m != nil {
		if np := nounPhrase(cutClause(m[1]), 5); len(strings.Fields(np)) >= 2 {
			return tidyCase(np)
		}
	}
	return ""
}

// labelsOf lists the labels of a markdown text: with strong, bold labels
// opening a line and the first cell of table body rows; without, list items.
func labelsOf(text string, strong bool) []string {
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		bold := boldLabelRe.FindStringSubmatch(t)
		switch {
		case strong && bold != nil:
			out = append(out, bold[1])
		case strong && strings.HasPrefix(t, "|") && !strings.Contains(t, "---"):
			if cells := strings.Split(strings.Trim(t, "|"), "|"); len(cells) > 1 {
				out = append(out, strings.TrimSpace(cells[0]))
			}
		case !strong && bold == nil && rp1.IsListItem(t):
			out = append(out, rp1.ListItemText(t))
		}
	}
	return out
}

// cutClause keeps the start of a sentence up to its first clause break or
// relative clause ("Sea kayakers planning trips …" → "Sea kayakers";
// "Accountants in mid-size companies who …" → "Accountants").
func cutClause(s string) string {
	s = parenRe.ReplaceAllString(s, "")
	lower := strings.ToLower(s)
	cut := len(s)
	for _, b := range []string{",", ";", ":", " - ", " — ", " – ", " who ", " that ", " which ", " whose ",
		" in ", " at ", " with ", " from ", " across ", " on ", " because ", " so ", " to ", " by ", " for ", " of all "} {
		if i := strings.Index(lower, b); i > 0 && i < cut {
			cut = i
		}
	}
	s = s[:cut]
	words := strings.Fields(s)
	for i, w := range words {
		if i > 0 && strings.HasSuffix(strings.ToLower(w), "ing") && len(w) > 5 {
			return strings.Join(words[:i], " ")
		}
	}
	return s
}

// nounPhrase returns s tidied as a noun phrase of at most max words, or ""
// when s reads as a clause or points back at one: it holds a pronoun or a
// verb from the lists, holds markdown or quotes, or has no letter.
func nounPhrase(s string, max int) string {
	s = plainText(parenRe.ReplaceAllString(s, ""))
	s = strings.TrimRight(strings.TrimSpace(s), ".!?:;,")
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > max {
		return ""
	}
	if pronouns[strings.ToLower(strings.Trim(words[0], `"'“”`))] {
		return ""
	}
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, `,.;:"'“”`))
		if verbs[lw] || pronouns[lw] || objectPronouns[lw] || strings.ContainsAny(w, "#`*_[]<>{}\"“”|") {
			return ""
		}
	}
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return ""
	}
	return strings.Join(words, " ")
}

// plural: the phrase's last word looks like a plural noun ("pilots",
// "renters"), the sign of a group of people when no cue word names them.
func plural(np string) bool {
	words := strings.Fields(np)
	w := strings.ToLower(words[len(words)-1])
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "ous")
}

// tidyCase lower-cases a phrase written in sentence or title case ("Product
// managers", "Individual Developers" → lower case) and keeps one holding a
// name or acronym ("ML Engineers", "GitHub maintainers") as written.
func tidyCase(s string) string {
	words := strings.Fields(s)
	for _, w := range words {
		if looksLikeName(w) {
			return s
		}
	}
	return strings.ToLower(s)
}

// splitDeterminer splits a leading "the ", "our " … off a phrase, so an
// adjective goes after it ("the spreadsheet" → "the out-of-date spreadsheet").
func splitDeterminer(s string) (string, string) {
	for _, d := range []string{"the ", "a ", "an ", "our ", "their ", "its ", "your "} {
		if len(s) > len(d) && strings.EqualFold(s[:len(d)], d) {
			return s[:len(d)], s[len(d):]
		}
	}
	return "", s
}

func lowerFirst(s string) string {
	if w := strings.Fields(s); len(w) > 0 && looksLikeName(w[0]) {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// looksLikeName: a word with a capital after its first letter (API, GitHub,
// MRM) or a lone "I".
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

// overlaps: the two fills say the same thing: one holds the other, or half
// the problem phrase's words are words of the users phrase.
func overlaps(users, problem string) bool {
	u, p := strings.ToLower(users), strings.ToLower(problem)
	if strings.Contains(u, p) || strings.Contains(p, u) {
		return true
	}
	have := map[string]bool{}
	for _, w := range strings.Fields(u) {
		have[w] = true
	}
	shared, words := 0, 0
	for _, w := range strings.Fields(p) {
		if len(w) <= 2 || w == "and" || w == "the" {
			continue
		}
		words++
		if have[w] {
			shared++
		}
	}
	return words > 0 && 2*shared >= words
}
