package rp1

import (
	"strings"
	"unicode"
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
	var b strings.Builder
	b.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '%':
			if !space {
				b.WriteByte(' ')
			}
			b.WriteString("percent ")
			space = true
		case r == '\'' || r == '’':
			b.WriteByte('\'')
			space = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// Addresses reports whether text carries a cue word for section id.
func Addresses(text string, id SectionID) bool {
	return addressesNorm(normalizeCueText(text), id)
}

func addressesNorm(norm string, id SectionID) bool {
	for _, cue := range wordCues[id] {
		if strings.Contains(norm, cue) {
			return true
		}
	}
	return false
}

// wordCues are Cues with the space that makes each match at a word start,
// joined once: the interview matches every sentence of every answer.
var wordCues = func() map[SectionID][]string {
	m := map[SectionID][]string{}
	for id, cues := range Cues {
		for _, cue := range cues {
			m[id] = append(m[id], " "+cue)
		}
	}
	return m
}()

// IsBrainDump: the entry is the CREATE interview's first, open question.
func IsBrainDump(topic string) bool {
	return strings.Contains(strings.ToLower(topic), "brain dump")
}
