package rp1

import "strings"

// headingNames maps normalised heading spellings to their section. The
// first five are upstream's own headings; the rest are variants people write
// by hand (SPEC §1 asks us to accept sensible ones).
var headingNames = map[string]SectionID{
	"problem and context":   Problem,
	"problem":               Problem,
	"problem statement":     Problem,
	"the problem":           Problem,
	"context":               Problem,
	"context and problem":   Problem,
	"problems and context":  Problem,
	"problem context":       Problem,
	"target users":          Users,
	"target user":           Users,
	"users":                 Users,
	"user":                  Users,
	"target audience":       Users,
	"audience":              Users,
	"customers":             Users,
	"target customers":      Users,
	"users and personas":    Users,
	"personas":              Users,
	"business rationale":    ValueProp,
	"value proposition":     ValueProp,
	"value prop":            ValueProp,
	"rationale":             ValueProp,
	"business value":        ValueProp,
	"value":                 ValueProp,
	"benefits":              ValueProp,
	"scope guardrails":      Scope,
	"scope":                 Scope,
	"scope and guardrails":  Scope,
	"guardrails":            Scope,
	"scope and constraints": Scope,
	"success criteria":      Success,
	"success metrics":       Success,
	"success":               Success,
	"metrics":               Success,
	"definition of done":    Success,
	"success and metrics":   Success,
}

// normalizeHeading lower-cases text, spells "&" as "and", drops a leading
// number ("1. ", "2) ") and all punctuation, and collapses spaces, so
// "1. Problem & Context:" and "problem and context" compare equal.
func normalizeHeading(text string) string {
	text = strings.ToLower(strings.TrimSpace(text))
	return wordKey(strings.ReplaceAll(text, "&", " and "), false)
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// SectionForHeading resolves an H2's text (without "## ") to one of the five
// sections, accepting upstream's headings and common variants, ignoring case.
func SectionForHeading(text string) (SectionID, bool) {
	id, ok := headingNames[normalizeHeading(text)]
	return id, ok
}

// topicKeywords are the words in a scratch-pad entry's topic that make its
// answer cover a section (SPEC §1, Q&A coverage).
var topicKeywords = []struct {
	section SectionID
	words   []string
}{
	{Problem, []string{"problem", "context"}},
	{Users, []string{"user", "audience", "customer"}},
	{ValueProp, []string{"value", "benefit", "rationale"}},
	{Scope, []string{"scope"}},
	{Success, []string{"success", "metric", "criteria"}},
}

// TopicSections lists, in priority order, the sections an answered entry
// with this topic covers: those with a keyword contained in the topic,
// ignoring case. An unknown topic covers none, and so does the Brain Dump:
// SPEC §1 maps it to problem, but what an open question covers is what its
// answer says (BrainDumpShares, QA.Coverage): the seed's CREATE example has
// it cover the users too, and a Brain Dump that says nothing about the
// problem leaves the problem question to be asked.
func TopicSections(topic string) []SectionID {
	t := strings.ToLower(topic)
	var ids []SectionID
	for _, k := range topicKeywords {
		for _, w := range k.words {
			if strings.Contains(t, w) {
				ids = append(ids, k.section)
				break
			}
		}
	}
	return ids
}

// firstNamed is the section a free text names first ("Value proposition
// already covered in Q2 (Target Users)" names value_prop, then users), by
// the topic keywords; "" when it names none.
func firstNamed(text string) SectionID {
	t := strings.ToLower(text)
	best, at := SectionID(""), len(t)+1
	for _, k := range topicKeywords {
		for _, w := range k.words {
			if i := strings.Index(t, w); i >= 0 && i < at {
				best, at = k.section, i
			}
		}
	}
	return best
}
