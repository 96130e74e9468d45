package rp1

import (
	"context"
	"strings"
)

// This file decides what an answer says about each section: the interview
// asks only about what the answers leave unsaid, and finishing writes each
// section from what the answers say about that section (SPEC §2, "Brain Dump
// coverage", "skip", "charter_content").

// Sentence is one sentence of an answer; Item marks a list item, which is
// written back as a list item.
type Sentence struct {
	Text string
	Item bool
}

// SplitSentences splits markdown text into sentences: paragraph lines are
// joined, list items stand alone, and a sentence ends at ".", "!" or "?"
// followed by a space. List markers are dropped; heading lines are structure,
// not sentences, and are skipped.
func SplitSentences(text string) []Sentence {
	var out []Sentence
	var para []string
	flush := func(item bool) {
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
					out = append(out, Sentence{s, item})
				}
				start = i + 1
			}
		}
		if s := strings.TrimSpace(joined[start:]); s != "" {
			out = append(out, Sentence{s, item})
		}
	}
	var f fence
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if f.step(line) {
			flush(false)
			continue
		}
		t := strings.TrimSpace(line)
		if lvl, _ := atxHeading(t); t == "" || lvl > 0 {
			flush(false)
			continue
		}
		if item, ok := listItemText(t); ok {
			flush(false)
			para = append(para, item)
			flush(true)
			continue
		}
		para = append(para, t)
	}
	flush(false)
	return out
}

// IsListItem: t (a trimmed line) is a list item.
func IsListItem(t string) bool { _, ok := listItemText(t); return ok }

// ListItemText is the text of a list item line without its marker.
func ListItemText(t string) string { s, _ := listItemText(t); return s }

// listItemText strips a "- ", "* ", "+ " or "1. " marker.
func listItemText(t string) (string, bool) {
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

// FormatSentences writes sentences back as markdown: consecutive prose
// sentences as one paragraph, list items as a "- " list.
func FormatSentences(ss []Sentence) string {
	var b strings.Builder
	for i, s := range ss {
		switch {
		case i == 0:
		case s.Item && ss[i-1].Item:
			b.WriteString("\n")
		case s.Item || ss[i-1].Item:
			b.WriteString("\n\n")
		default:
			b.WriteString(" ")
		}
		if s.Item {
			b.WriteString("- ")
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

// Writable: sentences that would fill a section on their own (a COMPLETE
// section: two sentences or more, no placeholder). An answer covers a section
// it was not asked about only when it says this much about it, so that the
// finished charter passes our own check.
func Writable(ss []Sentence) bool {
	return len(ss) > 0 && AssessBody(FormatSentences(ss)) == StatusComplete
}

// cueHits is how many distinct cue words of section id a normalised text
// holds.
func cueHits(norm string, id SectionID) int {
	n := 0
	for _, cue := range wordCues[id] {
		if strings.Contains(norm, cue) {
			n++
		}
	}
	return n
}

// bestSection is the section among candidates whose cues a sentence carries
// most (the earlier in priority order on a tie), or "" when it carries none.
func bestSection(s string, candidates func(SectionID) bool) SectionID {
	norm := normalizeCueText(s)
	best, hits := SectionID(""), 0
	for _, id := range Priority {
		if !candidates(id) {
			continue
		}
		if h := cueHits(norm, id); h > hits {
			best, hits = id, h
		}
	}
	return best
}

// BrainDumpShares distributes a Brain Dump answer: each sentence goes to the
// one section whose cue words it carries most, among the sections that have
// no answer of their own (own reports those); a sentence that carries none of
// their cues is context and goes to problem ("Problem & Context"). No
// sentence is placed twice, so no section repeats another's text.
func BrainDumpShares(answer string, own func(SectionID) bool) map[SectionID][]Sentence {
	shares := map[SectionID][]Sentence{}
	for _, s := range SplitSentences(answer) {
		id := bestSection(s.Text, func(id SectionID) bool { return id == Problem || !own(id) })
		if id == "" {
			id = Problem
		}
		shares[id] = append(shares[id], s)
	}
	return shares
}

// AnswerShare is what an answer about other sections (about) says about
// section id: its sentences whose cue words point to id more than to any
// section but those the answer is about.
func AnswerShare(answer string, about func(SectionID) bool, id SectionID) []Sentence {
	out, _ := answerShare(context.Background(), answer, about, id)
	return out
}

// answerShare is AnswerShare that stops, returning ctx's error, when ctx
// is done (looked at every 256 sentences: an answer can hold 300,000).
func answerShare(ctx context.Context, answer string, about func(SectionID) bool, id SectionID) ([]Sentence, error) {
	var out []Sentence
	for i, s := range SplitSentences(answer) {
		if i%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if bestSection(s.Text, func(x SectionID) bool { return !about(x) }) == id {
			out = append(out, s)
		}
	}
	return out, nil
}
