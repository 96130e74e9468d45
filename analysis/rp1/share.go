package rp1

import (
	"context"
	"slices"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
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
	var f codefence.Scanner
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if f.Step(line) {
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

// cueHits is how many distinct cue words of section id a normalised text
// holds.
func cueHits(norm string, id SectionID) int {
	n := 0
	for _, cue := range cueStarts[id] {
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
// one section whose cue words it carries most, among the sections not
// closed (closed reports those that take nothing from the Brain Dump: with
// an answer of their own, or complete in the charter); a sentence that
// carries none of their cues is context and goes to problem ("Problem &
// Context"). No sentence is placed twice, so no section repeats another's
// text. A sentence that only names the project ("Name: Benchbook") goes to
// none: the title holds it.
func BrainDumpShares(answer string, closed func(SectionID) bool) map[SectionID][]Sentence {
	shares, _ := brainDumpShares(context.Background(), answer, closed)
	return shares
}

// checkEvery is how many sentences the weighing of an answer reads between
// looks at its context: an answer can hold 300,000.
const checkEvery = 256

// brainDumpShares is BrainDumpShares that stops, returning ctx's error,
// when ctx is done.
func brainDumpShares(ctx context.Context, answer string, closed func(SectionID) bool) (map[SectionID][]Sentence, error) {
	shares := map[SectionID][]Sentence{}
	var lines []string
	for _, line := range strings.Split(answer, "\n") {
		if t := strings.TrimSpace(line); !nameOnly(ListItemText(t)) && !nameOnly(t) {
			lines = append(lines, line)
		}
	}
	for i, s := range SplitSentences(strings.Join(lines, "\n")) {
		if i%checkEvery == checkEvery-1 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if nameOnly(s.Text) {
			continue // "Name: Benchbook" is the title's
		}
		id := bestSection(s.Text, func(id SectionID) bool { return id == Problem || !closed(id) })
		if id == "" {
			id = Problem
		}
		shares[id] = append(shares[id], s)
	}
	return shares, nil
}

// minMoveHits is how many distinct cue words of another section a
// sentence of an answer must carry to move there: an answer was given to
// one question, so a sentence leaves it only when it clearly speaks about
// something else ("We will measure success by the time from page to
// runbook" in a value answer), never for one word in passing ("they save
// an hour" in a users answer stays there).
const minMoveHits = 2

// AnswerUnits is what an answer to a question about sections ids says
// about each section, as markdown: a sentence or list item whose cue words
// point to an open section (open reports those) not among ids — at least
// minMoveHits of them, and more than for any of ids — moves there; the rest
// stays with ids (with several, each sentence with the one whose cues it
// carries most, else the first). An answer written as structured markdown
// (headings, tables, code, quotes, indented or nested lists, HTML) is never
// split, and neither is one whose every sentence would leave: what was said
// in answer to a question stays its answer. An answer kept whole is
// returned as written, under ids[0].
func AnswerUnits(answer string, ids []SectionID, open func(SectionID) bool) map[SectionID]string {
	units, _ := answerUnits(context.Background(), answer, ids, open)
	return units
}

// answerUnits is AnswerUnits that stops, returning ctx's error, when ctx
// is done.
func answerUnits(ctx context.Context, answer string, ids []SectionID, open func(SectionID) bool) (map[SectionID]string, error) {
	answer = strings.TrimSpace(strings.ReplaceAll(answer, "\r\n", "\n"))
	whole := map[SectionID]string{ids[0]: answer}
	var others []SectionID // the open sections a sentence may move to
	for _, id := range Priority {
		if !slices.Contains(ids, id) && open(id) {
			others = append(others, id)
		}
	}
	if (len(others) == 0 && len(ids) == 1) || !plainMarkdown(answer) {
		return whole, nil
	}
	parts := map[SectionID][]Sentence{}
	moved := false
	for i, s := range SplitSentences(answer) {
		if i%checkEvery == checkEvery-1 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		norm := normalizeCueText(s.Text)
		to, best := SectionID(""), minMoveHits-1
		for _, id := range others {
			if h := cueHits(norm, id); h > best {
				to, best = id, h
			}
		}
		home, homeHits := ids[0], 0
		if len(ids) > 1 || to != "" {
			for _, id := range ids {
				if h := cueHits(norm, id); h > homeHits {
					home, homeHits = id, h
				}
			}
		}
		if to == "" || best <= homeHits {
			to = home
		}
		moved = moved || !slices.Contains(ids, to)
		parts[to] = append(parts[to], s)
	}
	stays := false
	for _, id := range ids {
		stays = stays || len(parts[id]) > 0
	}
	if !stays || (!moved && len(ids) == 1) {
		return whole, nil
	}
	out := map[SectionID]string{}
	for id, ss := range parts {
		out[id] = FormatSentences(ss)
	}
	return out, nil
}

// plainMarkdown: text is prose paragraphs and top-level list items only,
// which SplitSentences and FormatSentences carry without loss of meaning.
func plainMarkdown(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case line != strings.TrimLeft(line, " \t") && (IsListItem(t) || len(line)-len(strings.TrimLeft(line, " \t")) >= 2):
			return false // nested items, indented continuations, indented code
		case strings.ContainsAny(t[:1], "#|><") || codefence.Opens(t):
			return false
		}
	}
	return true
}
