package rp1

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cues are the words that show an answer addresses a section (SPEC §2,
// "Brain Dump coverage" and "skip"). The interviewer upstream is a language
// model that judges this; we make it deterministic with these lists (interview/README.md
// lists them for users). The interview and the gap analysis share them.
//
// Matching: the answer is lower-cased, every character other than a letter,
// digit or apostrophe becomes a space ("non-goal" reads "non goal", "40%"
// reads "40 percent"), and a cue matches where it starts a word: "user"
// matches "users" and "user's" but not "reuse". A multi-word cue matches the
// words in sequence. One matching cue is enough.
var Cues = map[SectionID][]string{
	Problem: {"problem", "pain", "frustrat", "struggl", "tedious", "by hand",
		"manual", "error prone", "out of date", "outdated", "waste", "slow", "hard to",
		"difficult", "broken", "currently", "right now", "why now", "too long",
		"costly", "expensive"},
	Users: {"user", "customer", "client", "audience", "persona", "people",
		"person", "team", "engineer", "developer", "manager", "lead", "admin",
		"operator", "student", "teacher", "staff", "employee"},
	ValueProp: {"value", "benefit", "better than", "faster", "cheaper",
		"easier", "save", "saving", "differentiat", "unlike", "instead of",
		"advantage", "unique", "so that", "compared to", "competitor", "alternative"},
	Scope: {"scope", "v1", "mvp", "first version", "first release",
		"will not", "won't", "we will", "exclud", "non goal", "guardrail", "boundar"},
	Success: {"success", "succeed", "metric", "measur", "kpi",
		"percent", "reduc", "increas", "fail", "done when", "definition of done",
		"adoption", "retention"},
}

// normalizeCueText lower-cases s and reduces it to words separated by single
// spaces, with a leading and trailing space so that " cue" finds word starts.
func normalizeCueText(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, ' ')
	space := true
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case r >= 'A' && r <= 'Z':
			b = append(b, byte(r-'A'+'a'))
			space = false
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b = append(b, byte(r))
			space = false
		case r == '%':
			if !space {
				b = append(b, ' ')
			}
			b = append(b, "percent "...)
			space = true
		case r == '\'' || r == '’':
			b = append(b, '\'')
			space = false
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b = utf8.AppendRune(b, unicode.ToLower(r))
			space = false
		default:
			if !space {
				b = append(b, ' ')
				space = true
			}
		}
	}
	if !space {
		b = append(b, ' ')
	}
	return string(b)
}

// Addresses reports whether text carries a cue word for section id.
func Addresses(text string, id SectionID) bool {
	return addressesNorm(normalizeCueText(text), id)
}

func addressesNorm(norm string, id SectionID) bool {
	for _, cue := range cueStarts[id] {
		if strings.Contains(norm, cue) {
			return true
		}
	}
	return false
}

// cueStarts are the cues with the space that makes them match at a word's
// start, made once (building them per sentence cost more than matching).
var cueStarts = func() map[SectionID][]string {
	m := map[SectionID][]string{}
	for id, cues := range Cues {
		for _, c := range cues {
			m[id] = append(m[id], " "+c)
		}
	}
	return m
}()

// IsBrainDump: the entry is the CREATE interview's first, open question.
func IsBrainDump(topic string) bool {
	return strings.Contains(strings.ToLower(topic), "brain dump")
}

// ProjectNameTopic is the topic of the question that asks for the project's
// name when the Brain Dump did not give it (interview/README.md): its answer
// is the charter's title, about no section.
const ProjectNameTopic = "Project Name"

// IsProjectName: the entry asked for the project's name.
func IsProjectName(topic string) bool {
	return strings.EqualFold(strings.TrimSpace(topic), ProjectNameTopic)
}

// declines are answers that say nothing but that the user has no answer
// (matched whole, as normalizeCueText reads them, with a leading "sorry",
// "honestly", "hmm", "um" or "uh" and a trailing "yet", "sorry", "for now",
// "right now" or "honestly" ignored).
var declines = map[string]bool{
	"skip": true, "skipped": true, "pass": true, "next": true, "n a": true, "na": true, "none": true, "nothing": true,
	"no idea": true, "no clue": true, "unknown": true, "unsure": true, "not sure": true, "i'm not sure": true, "im not sure": true,
	"i am not sure": true, "don't know": true, "dont know": true, "i don't know": true, "i dont know": true, "idk": true,
	"no answer": true, "tbd": true, "to be determined": true, "todo": true, "later": true, "not yet": true,
	"not decided": true, "undecided": true, "haven't decided": true, "we haven't decided": true, "i haven't decided": true,
	"let's skip": true, "lets skip": true, "skip this": true, "skip this one": true, "pass on this": true,
	"i don't know ask me later": true, "ask me later": true,
}

// Declines reports whether an answer only declines to answer ("I don't
// know.", "skip", "n/a", "TBD", "no idea yet"): such an answer covers
// nothing and is written nowhere, and its question, like a skipped one, is
// not asked again.
func Declines(answer string) bool {
	norm := strings.TrimSpace(normalizeCueText(answer))
	for {
		if declines[norm] {
			return true
		}
		cut := false
		for _, tail := range []string{" yet", " sorry", " for now", " right now", " honestly"} {
			if t, ok := strings.CutSuffix(norm, tail); ok {
				norm, cut = t, true
			}
		}
		for _, head := range []string{"sorry ", "honestly ", "hmm ", "um ", "uh "} {
			if t, ok := strings.CutPrefix(norm, head); ok {
				norm, cut = t, true
			}
		}
		if !cut {
			return norm == ""
		}
	}
}
