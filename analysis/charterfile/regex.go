package charterfile

import (
	"unicode/utf8"
)

// The matchers below are pi-charter's line regexes, written out so that
// they behave exactly as JavaScript runs them (backtracking included) and
// return byte offsets for spans. Each names the regex it implements.

// lazyTitle matches `\s+(.+?)\s*$` against rest, as a heading's text is
// matched after its marker: at least one whitespace character, then the
// shortest non-empty run of non-line-terminators after which only
// whitespace remains. Worked out rather than backtracked, in one pass:
//   - after the leading whitespace there is more text: the title runs from
//     there to the last non-whitespace character, and fails if a line
//     terminator (a CR) lies inside it;
//   - the rest is all whitespace: the greedy \s+ gives back one character
//     to (.+?), the last one that is not a line terminator and not the
//     first, so "##  " (two spaces) is a heading whose text is " ".
func lazyTitle(rest string) (start, end int, ok bool) {
	k := skipSpace(rest, 0)
	if k == 0 {
		return 0, 0, false
	}
	if k < len(rest) {
		end := len(jsTrimEnd(rest))
		if hasLineTerminator(rest[k:end]) {
			return 0, 0, false
		}
		return k, end, true
	}
	_, first := utf8.DecodeRuneInString(rest)
	for p := len(rest); p > first; {
		r, n := utf8.DecodeLastRuneInString(rest[:p])
		p -= n
		if p >= first && !isJSLineTerminator(r) {
			return p, p + n, true
		}
	}
	return 0, 0, false
}

// heading matches HEADING = /^(#{1,6})\s+(.+?)\s*$/ (PH and OBJ parsers):
// the level and the text's offsets in l.
func heading(l string) (level, start, end int, ok bool) {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0, 0, 0, false
	}
	s, e, ok := lazyTitle(l[n:])
	if !ok {
		return 0, 0, 0, false
	}
	return n, n + s, n + e, true
}

// level2 matches LEVEL2_HEADING = /^##\s+(.+?)\s*$/ (FI parsers).
func level2(l string) (start, end int, ok bool) {
	if len(l) < 2 || l[0] != '#' || l[1] != '#' {
		return 0, 0, false
	}
	s, e, ok := lazyTitle(l[2:])
	return s + 2, e + 2, ok
}

// anyHeading matches ANY_HEADING = /^#{1,6}\s/, which ends a criterion block.
func anyHeading(l string) bool {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n == len(l) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(l[n:])
	return isJSSpace(r)
}

// criterionHeading matches CRITERION_HEADING = /^###\s+(C\d+)\.\s+(.+?)\s*$/:
// the id's and the title's offsets in l.
func criterionHeading(l string) (idStart, idEnd, titleStart, titleEnd int, ok bool) {
	if len(l) < 3 || l[:3] != "###" {
		return
	}
	i := skipSpace(l, 3)
	if i == 3 || i >= len(l) || l[i] != 'C' {
		return
	}
	j := i + 1
	for j < len(l) && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	if j == i+1 || j >= len(l) || l[j] != '.' {
		return
	}
	s, e, found := lazyTitle(l[j+1:])
	if !found {
		return
	}
	return i, j, j + 1 + s, j + 1 + e, true
}

// labelLine matches /^Label:\s*(.*)$/i (Depends, Evidence, Status): the
// value and its offset in l. The label's ASCII letters match in any case.
// (.*) cannot cross a line terminator, so a value ending in CR (a CRLF
// file) does not match, while a bare "Label:\r" does: \s* takes the CR.
func labelLine(l, label string) (value string, at int, ok bool) {
	if len(l) < len(label)+1 || !hasPrefixFold(l, label) || l[len(label)] != ':' {
		return "", 0, false
	}
	at = skipSpace(l, len(label)+1)
	value = l[at:]
	if hasLineTerminator(value) {
		return "", 0, false
	}
	return value, at, true
}

// phaseItem matches PHASE_ITEM = /^(\d+)\.\s+(.+?)\s*$/: the number's end
// and the title's offsets.
func phaseItem(l string) (numEnd, start, end int, ok bool) {
	n := 0
	for n < len(l) && l[n] >= '0' && l[n] <= '9' {
		n++
	}
	if n == 0 || n >= len(l) || l[n] != '.' {
		return 0, 0, 0, false
	}
	s, e, ok := lazyTitle(l[n+1:])
	if !ok {
		return 0, 0, 0, false
	}
	return n, n + 1 + s, n + 1 + e, true
}

// statusValue matches the value regexes
// /^(\S+)\s*(?:[—–-]\s*)?([\s\S]*)$/ (FI14, FI15 legacy Evidence) and
// /^(\S+)\s*(?:[—–-]\s*)?(.*)$/ (FI15 Status, one line): the token, the
// offset where the note starts, and whether it matched at all (a value
// that is empty or starts with whitespace does not). The caller trims the
// note, as upstream does.
func statusValue(raw string) (token string, noteAt int, ok bool) {
	i := 0
	for i < len(raw) {
		r, n := utf8.DecodeRuneInString(raw[i:])
		if isJSSpace(r) {
			break
		}
		i += n
	}
	if i == 0 {
		return "", 0, false
	}
	j := skipSpace(raw, i)
	if j < len(raw) {
		r, n := utf8.DecodeRuneInString(raw[j:])
		if r == '—' || r == '–' || r == '-' {
			j = skipSpace(raw, j+n)
		}
	}
	return raw[:i], j, true
}

// statusSuffix matches STATUS_SUFFIX = /\s+—\s*(upcoming|current|done)\s*$/i
// against a phase title (which ends in a non-space character): where the
// match starts and the status, lower-cased.
func statusSuffix(title string) (at int, status PhaseStatus, ok bool) {
	for _, status := range PhaseStatuses {
		word := string(status)
		if len(title) < len(word) || !hasPrefixFold(title[len(title)-len(word):], word) {
			continue
		}
		p := len(title) - len(word)
		// \s* before the word, then the em dash.
		q := p
		for q > 0 {
			r, n := utf8.DecodeLastRuneInString(title[:q])
			if !isJSSpace(r) {
				break
			}
			q -= n
		}
		r, n := utf8.DecodeLastRuneInString(title[:q])
		if r != '—' {
			continue
		}
		q -= n
		// \s+ before the dash; the leftmost match starts where that run starts.
		s := q
		for s > 0 {
			r, n := utf8.DecodeLastRuneInString(title[:s])
			if !isJSSpace(r) {
				break
			}
			s -= n
		}
		if s == q {
			continue
		}
		return s, status, true
	}
	return 0, "", false
}
