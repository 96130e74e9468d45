package rp1

import (
	"regexp"
	"strings"
)

// TitlePrefix opens the title rp1 writes: "# Project Charter: {name}".
const TitlePrefix = "Project Charter:"

// ProjectName is the project's name as the title gives it ("# Project
// Charter: Ledger Sync" → "Ledger Sync"), and whether the title waits for
// one: nothing after "Project Charter:", or a placeholder there ("[To Be
// Determined]", "{Project Name}", "TBD"). A charter with no H1 has neither.
func (ch *Charter) ProjectName() (name string, placeholder bool) {
	if ch.TitleSpan.Len() == 0 {
		return "", false
	}
	name = strings.TrimSpace(ch.Title)
	if len(name) >= len(TitlePrefix) && strings.EqualFold(name[:len(TitlePrefix)], TitlePrefix) {
		name = strings.TrimSpace(name[len(TitlePrefix):])
	}
	if name == "" || holdsMarker(name) {
		return "", true
	}
	return name, false
}

// holdsMarker: s holds a placeholder marker among the first maxMarkers
// matches of each expression (a title of 100,000 "TBD" is not matched to
// its end).
func holdsMarker(s string) bool { return len(markerSpans(s, maxMarkers)) > 0 }

// A finished charter is titled "# Project Charter: {name}". When the title
// waits for one, the interview takes the name from the Brain Dump (the
// open question asks "What are you building?", and people name what they
// build: NameIn), else from the answer to the project-name question
// (NameFromAnswer).

const maxNameWords, maxNameLen = 6, 60

var (
	// nameSeq is one to five words of a name, each capitalised or a number
	// ("Runbook Radar", "GitOps 2").
	nameSeq = `[A-Z0-9][\w.+&'’-]*(?:\s+[A-Z0-9][\w.+&'’-]*){0,4}`
	// quoted is a name in quotes or backticks.
	quoted = "\"([^\"\\n]{1,60})\"|“([^”\\n]{1,60})”|`([^`\\n]{1,60})`"
	// namedRe: "called Runbook Radar", "named \"tidepool\"", "codename
	// Ferry", "the name is Ledger Sync", "we're calling it Rota".
	namedRe = regexp.MustCompile(`(?i:\b(?:called|named|calling it|call it|codenamed|code-named|code name|codename|working title is|working name is|name is|name's))\s+(?:` +
		quoted + `|(` + nameSeq + `))`)
	// lowerNameRe: a lower-case name, only where the sentence says it is
	// the name ("it's called ferrylog.", "we call it tidepool"), not after
	// any "called" ("what everyone called chaos").
	lowerNameRe = regexp.MustCompile(`(?i:\b(?:it's|it is|it’s|is|project|tool|app) (?:called|named)|\bcall(?:ing)? it|\bname is)\s+([a-z][\w.-]*[a-z0-9])(?:[.,;:!?)]|$)`)
	// buildingRe: "We're building Runbook Radar, a …" at a sentence start.
	buildingRe = regexp.MustCompile(`^(?i:(?:we're|we are|we’re|i'm|i am|i’m)\s+(?:building|making|creating|writing|developing|launching))\s+(?:` +
		quoted + `|(` + nameSeq + `))(?:,|:|\s+[-–—(]|\s+(?:to|for|which|that)\b|[.!]?$)`)
	// isARe: "Runbook Radar is a search tool …" at a sentence start.
	isARe = regexp.MustCompile(`^(` + nameSeq + `)\s+(?:is|will be)\s+(?:a|an|the|our)\b`)
	// labelRe: "Project name: Rota", "Name - Rota".
	labelRe = regexp.MustCompile(`^(?i:(?:project\s+name|project|name|working\s+title|codename))\s*[:–—-]\s*(.+)$`)
	// answerLeadRe: lead-ins of an answer to the project-name question.
	answerLeadRe = regexp.MustCompile(`^(?i:(?:it's|it is|it’s|its name is|the name is|the project is|the project's called|we call it|let's call it|call it|let’s call it)\s+)`)
)

// notNames open a phrase that is a sentence's subject, not a name.
var notNames = map[string]bool{"a": true, "an": true, "the": true, "this": true, "that": true, "these": true, "it": true,
	"it's": true, "its": true, "we": true, "i": true, "our": true, "my": true, "their": true, "there": true, "here": true,
	"they": true, "he": true, "she": true, "you": true, "everyone": true, "everybody": true, "everything": true,
	"today": true, "currently": true, "now": true, "right": true, "so": true, "but": true, "and": true, "or": true, "if": true,
	"when": true, "then": true, "also": true, "users": true, "people": true, "problem": true, "v1": true}

// NameIn finds a project's name in free text, sentence by sentence: after
// "called", "named", "codename", "the name is" and the like, or a "Project
// name:" label; in the opening sentence also after "We're building" and as
// the subject of "X is a …". A name is one to five capitalised words (or
// numbers) or a quoted phrase; a single lower-case word only where the
// sentence says it is the name ("it's called ferrylog."). "" when the text
// names nothing.
func NameIn(text string) string {
	for i, s := range SplitSentences(text) {
		line := StripInline(s.Text)
		if m := labelRe.FindStringSubmatch(line); m != nil {
			if n := tidyName(m[1]); n != "" {
				return n
			}
		}
		res := []*regexp.Regexp{namedRe, lowerNameRe}
		if i == 0 {
			// Only an opening sentence introduces the project this way;
			// later, "Confluence is a graveyard" names something else.
			res = append(res, buildingRe, isARe)
		}
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				for _, g := range m[1:] {
					if n := tidyName(g); n != "" {
						return n
					}
				}
			}
		}
	}
	return ""
}

// NameFromAnswer reads the answer to the project-name question: a name NameIn
// finds, else the answer itself when it is short enough to be a name ("Rota
// planner", "It's Rota."), else "" (a sentence is not a title).
func NameFromAnswer(answer string) string {
	if Declines(answer) {
		return ""
	}
	if n := NameIn(answer); n != "" {
		return n
	}
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(answer), "\n", 2)[0])
	if IsListItem(line) {
		line = ListItemText(line)
	}
	line = answerLeadRe.ReplaceAllString(StripInline(line), "")
	return tidyName(line)
}

// tidyName trims quotes, brackets and punctuation around a candidate name
// and refuses what cannot be one: empty, longer than maxNameWords words or
// maxNameLen bytes, a placeholder, or a phrase that opens like a sentence's
// subject ("The problem", "It").
func tidyName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, " \"'“”‘’`*_()[]{}<>.,;:!?")
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > maxNameWords || len(s) > maxNameLen || notNames[strings.ToLower(words[0])] {
		return ""
	}
	if Declines(s) || strings.ContainsAny(s, "#|\n") {
		return ""
	}
	if holdsMarker(s) {
		return ""
	}
	return s
}

var (
	// emphasisRe, linkRe: inline markdown StripInline removes.
	emphasisRe = regexp.MustCompile(`\*\*|__|\*|\b_|_\b|~~`)
	linkRe     = regexp.MustCompile(`!?\[([^\]\n]*)\]\([^)\n]*\)`)
)

// StripInline removes emphasis and turns links into their text, on one
// line, with runs of white space made single.
func StripInline(s string) string {
	s = linkRe.ReplaceAllString(s, "$1")
	s = emphasisRe.ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}

// nameOnly: a sentence that only gives the project's name ("Name:
// Benchbook", "We've been calling it Tailwag for now.", "It's called
// Benchbook."): once the name and these filler words are taken away,
// nothing is left. The Brain Dump's distribution leaves it out of the
// sections: the title holds it.
func nameOnly(sentence string) bool {
	// Cheap tests first (this runs on every sentence of a Brain Dump): such
	// a sentence is short and holds the word that says it is a name.
	if len(sentence) > 3*maxNameLen || strings.Count(sentence, " ") > maxNameWords+8 {
		return false
	}
	other, said := 0, false
	for _, w := range strings.Fields(strings.ToLower(sentence)) {
		w = strings.Trim(w, ".,;:!?\"'“”‘’`*_()-–—")
		switch {
		case nameWords[w]:
			said = true
		case !nameFiller[w]:
			other++
		}
	}
	if !said || other > maxNameWords {
		return false
	}
	name := NameIn(sentence)
	if name == "" {
		return false
	}
	rest := strings.Replace(StripInline(sentence), name, " ", 1)
	for _, w := range strings.Fields(strings.ToLower(rest)) {
		if !nameFiller[strings.Trim(w, ".,;:!?\"'“”‘’`*_()-–—")] {
			return false
		}
	}
	return true
}

// nameWords say that what follows is a name; nameFiller are the other words
// of a sentence that only gives one.
var nameWords = map[string]bool{"called": true, "calling": true, "call": true, "named": true, "name": true, "name's": true,
	"codename": true, "codenamed": true, "project": true, "title": true}

var nameFiller = map[string]bool{"": true, "we": true, "we've": true, "we're": true, "we’ve": true, "we’re": true, "i": true,
	"i'm": true, "i’m": true, "i've": true, "been": true, "are": true, "is": true, "it": true, "it's": true, "it’s": true, "its": true,
	"calling": true, "called": true, "call": true, "named": true, "name": true, "name's": true, "the": true, "project": true,
	"project's": true, "for": true, "now": true, "just": true, "currently": true, "codename": true, "codenamed": true, "code": true,
	"working": true, "title": true, "our": true, "my": true, "so": true, "tool": true, "app": true, "this": true, "will": true, "be": true}
