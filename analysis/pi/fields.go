package pi

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Normalized field keys upstream reads.
const (
	KeyVerifier    = "verifier"
	KeyCommand     = "command"
	KeyBecause     = "because"
	KeyDescription = "description"
	KeyAgent       = "agent"
	KeyTask        = "task"
	KeyKind        = "kind"
	KeyFreshSince  = "freshsince"
)

// FreshKeys and ReviewKeys are the aliases of the two per-VAL flags in the
// order upstream consults them: the first one present decides, even when its
// value is not a boolean.
var (
	FreshKeys  = []string{"fresh evidence required", "require fresh evidence", "requirefreshevidence"}
	ReviewKeys = []string{"review subagent required", "require review subagent", "requirereviewsubagent"}
)

// KnownKeys are every normalized field key upstream reads.
var KnownKeys = append([]string{KeyVerifier, KeyCommand, KeyBecause, KeyDescription, KeyAgent, KeyTask, KeyKind, KeyFreshSince},
	append(append([]string{}, FreshKeys...), ReviewKeys...)...)

// IsKnownKey reports whether key (normalized) is one upstream reads.
func IsKnownKey(key string) bool {
	for _, k := range KnownKeys {
		if k == key {
			return true
		}
	}
	return false
}

// matchField applies upstream's /^([A-Za-z][A-Za-z ]+):\s*(.*?)\s*$/ to the
// trimmed line l.
func matchField(src []byte, l line) (Field, bool) {
	t := trimSpan(src, l.span())
	return matchFieldAt(src, l.span(), t)
}

// matchFieldAt matches the field pattern on the text t of line span ls.
func matchFieldAt(src []byte, ls, t source.Span) (Field, bool) {
	if t.Len() < 3 || !isLetter(src[t.Start]) {
		return Field{}, false
	}
	j := t.Start + 1
	for j < t.End && (isLetter(src[j]) || src[j] == ' ') {
		j++
	}
	if j-t.Start < 2 || j >= t.End || src[j] != ':' {
		return Field{}, false
	}
	v := trimSpan(src, source.Span{Start: j + 1, End: t.End})
	if hasLineTerminator(src[v.Start:v.End]) {
		return Field{}, false
	}
	text := string(src[t.Start:v.End]) // the key and the value in one copy: every field line of every VAL
	return Field{
		Key:       normalizeKey(src[t.Start:j]),
		RawKey:    text[:j-t.Start],
		Value:     text[v.Start-t.Start:],
		LineSpan:  ls,
		KeySpan:   source.Span{Start: t.Start, End: j},
		ValueSpan: v,
	}, true
}

// matchLooseField recognizes the field forms upstream does not read: a list
// bullet ("- Verifier: x", "1. Verifier: x") or bold ("**Verifier:** x",
// "**Verifier**: x"). Only known keys count, so prose bullets are left alone.
func matchLooseField(src []byte, l line) (FieldLine, bool) {
	t := trimSpan(src, l.span())
	form := ""
	s := t.Start
	if s < t.End && (src[s] == '-' || src[s] == '*' || src[s] == '+') && s+1 < t.End && (src[s+1] == ' ' || src[s+1] == '\t') {
		form, s = "bullet", skipSpace(src, s+1, t.End)
	} else if d := s; d < t.End && src[d] >= '0' && src[d] <= '9' {
		for d < t.End && src[d] >= '0' && src[d] <= '9' {
			d++
		}
		if d+1 < t.End && (src[d] == '.' || src[d] == ')') && (src[d+1] == ' ' || src[d+1] == '\t') {
			form, s = "bullet", skipSpace(src, d+1, t.End)
		}
	}
	var marker []byte
	if s+2 <= t.End && (bytes.HasPrefix(src[s:t.End], []byte("**")) || bytes.HasPrefix(src[s:t.End], []byte("__"))) {
		marker = src[s : s+2]
		s += 2
		if form == "" {
			form = "bold"
		}
	}
	if form == "" {
		return FieldLine{}, false
	}
	// Find the key: letters and spaces up to ':' (optionally inside the bold).
	k := s
	for k < t.End && (isLetter(src[k]) || src[k] == ' ') {
		k++
	}
	keyEnd := k
	rest := src[k:t.End]
	switch {
	case marker != nil && bytes.HasPrefix(rest, []byte(":"+string(marker))):
		k += 3
	case marker != nil && bytes.HasPrefix(rest, append(append([]byte{}, marker...), ':')):
		k += 3
	case marker == nil && bytes.HasPrefix(rest, []byte(":")):
		k++
	default:
		return FieldLine{}, false
	}
	if keyEnd-s < 2 || !isLetter(src[s]) {
		return FieldLine{}, false
	}
	key := normalizeKey(src[s:keyEnd])
	if !IsKnownKey(key) {
		return FieldLine{}, false
	}
	v := trimSpan(src, source.Span{Start: k, End: t.End})
	return FieldLine{Form: form, Field: Field{
		Key: key, RawKey: string(src[s:keyEnd]), Value: string(src[v.Start:v.End]),
		LineSpan: l.span(), KeySpan: source.Span{Start: s, End: keyEnd}, ValueSpan: v,
	}}, true
}

// parseBoolean is upstream's: true|yes|false|no, case-insensitive; ok is
// false for anything else (upstream then uses its fallback).
func parseBoolean(v string) (value, ok bool) {
	switch jsLower(strings.TrimFunc(v, isJSSpace)) {
	case "true", "yes":
		return true, true
	case "false", "no":
		return false, true
	}
	return false, false
}

// matchVALHeading applies upstream's /^(VAL-[A-Z0-9-]+)\s*(?:[—-]\s*)?(.*)$/
// to the trimmed heading text t. greedy reports an id that runs straight into
// a word (VAL-X-001-Title reads as VAL-X-001-T).
func matchVALHeading(src []byte, t source.Span) (id, title source.Span, greedy, ok bool) {
	b := src[t.Start:t.End]
	if !bytes.HasPrefix(b, []byte("VAL-")) {
		return
	}
	i := 4
	for i < len(b) && (b[i] >= 'A' && b[i] <= 'Z' || b[i] >= '0' && b[i] <= '9' || b[i] == '-') {
		i++
	}
	if i == 4 {
		return
	}
	id = source.Span{Start: t.Start, End: t.Start + i}
	if i < len(b) {
		r, _ := utf8.DecodeRune(b[i:])
		greedy = unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	j := skipSpace(src, t.Start+i, t.End)
	if bytes.HasPrefix(src[j:t.End], []byte("—")) {
		j = skipSpace(src, j+len("—"), t.End)
	} else if j < t.End && src[j] == '-' {
		j = skipSpace(src, j+1, t.End)
	}
	return id, source.Span{Start: j, End: t.End}, greedy, true
}

// intendedID guesses the id the author meant when the id regex swallowed
// the start of a title word: drop the trailing capitals and the '-' before
// them (VAL-X-001-T → VAL-X-001). "" when no sensible guess exists.
func intendedID(id string) string {
	k := len(id)
	for k > 0 && id[k-1] >= 'A' && id[k-1] <= 'Z' {
		k--
	}
	if k == len(id) {
		return ""
	}
	guess := strings.TrimRight(id[:k], "-")
	if len(guess) <= len("VAL-") {
		return ""
	}
	return guess
}

// looksLikeVALID reports whether the first token of heading text t is meant
// as a VAL id (VAL-, val-, VAL_ in any case) even if upstream rejects it.
func looksLikeVALID(src []byte, t source.Span) (tok source.Span, ok bool) {
	tok = firstToken(src, t)
	b := src[tok.Start:tok.End]
	if len(b) < 4 || !strings.EqualFold(string(b[:3]), "val") || (b[3] != '-' && b[3] != '_') {
		return source.Span{}, false
	}
	return tok, true
}
