package pi

import "unicode/utf8"

// jsonScan walks JSON text once, by byte offsets: the sidecars' and the
// evidence runs' readers need each value's span and raw text, which
// encoding/json's decoder gave by tokens (a history of a hundred thousand
// runs spent most of its parse there). It accepts exactly what
// encoding/json's scanner accepts (RFC 8259; a string's bytes are not
// checked for UTF-8, as there); whatever it refuses, the callers hand to
// encoding/json, whose error messages the diagnostics quote.
type jsonScan struct {
	src   []byte
	i     int
	depth int
}

// maxJSONDepth is encoding/json's nesting limit: deeper is an error there.
const maxJSONDepth = 10000

func (s *jsonScan) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// document reports whether src is one JSON value with only white space
// around it, and the value's span.
func (s *jsonScan) document() (start, end int, ok bool) {
	s.space()
	start = s.i
	if !s.value() {
		return 0, 0, false
	}
	end = s.i
	s.space()
	return start, end, s.i == len(s.src)
}

// value steps over the value at s.i.
func (s *jsonScan) value() bool {
	if s.i >= len(s.src) {
		return false
	}
	switch c := s.src[s.i]; {
	case c == '{':
		return s.object(nil)
	case c == '[':
		return s.array(nil)
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return false
}

func (s *jsonScan) literal(word string) bool {
	if len(s.src)-s.i < len(word) || string(s.src[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

func (s *jsonScan) digits() bool {
	start := s.i
	for s.i < len(s.src) && s.src[s.i] >= '0' && s.src[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

func (s *jsonScan) number() bool {
	if s.src[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.src) && s.src[s.i] == '0':
		s.i++
	case !s.digits():
		return false
	}
	if s.i < len(s.src) && s.src[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.src) && (s.src[s.i] == 'e' || s.src[s.i] == 'E') {
		s.i++
		if s.i < len(s.src) && (s.src[s.i] == '+' || s.src[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// str steps over the string at s.i.
func (s *jsonScan) str() bool {
	s.i++ // the opening quote
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			s.i++
			if s.i >= len(s.src) {
				return false
			}
			switch s.src[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if len(s.src)-s.i < 5 {
					return false
				}
				for _, h := range s.src[s.i+1 : s.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				s.i += 5
			default:
				return false
			}
		default:
			s.i++
		}
	}
	return false
}

// object steps over the object at s.i, calling member (when set) with each
// member's key span (quotes included) and value span.
func (s *jsonScan) object(member func(ks, ke, vs, ve int)) bool {
	if s.depth++; s.depth > maxJSONDepth {
		return false
	}
	defer func() { s.depth-- }()
	s.i++ // {
	s.space()
	if s.i < len(s.src) && s.src[s.i] == '}' {
		s.i++
		return true
	}
	for {
		if s.i >= len(s.src) || s.src[s.i] != '"' {
			return false
		}
		ks := s.i
		if !s.str() {
			return false
		}
		ke := s.i
		s.space()
		if s.i >= len(s.src) || s.src[s.i] != ':' {
			return false
		}
		s.i++
		s.space()
		vs := s.i
		if !s.value() {
			return false
		}
		if member != nil {
			member(ks, ke, vs, s.i)
		}
		if more, ok := s.next('}'); !more {
			return ok
		}
	}
}

// next steps over what follows a member or an element: a comma (more to
// come) or the container's closing byte (done, ok); anything else is not
// JSON.
func (s *jsonScan) next(closing byte) (more, ok bool) {
	s.space()
	if s.i >= len(s.src) {
		return false, false
	}
	switch s.src[s.i] {
	case ',':
		s.i++
		s.space()
		return true, true
	case closing:
		s.i++
		return false, true
	}
	return false, false
}

// array steps over the array at s.i, calling elem (when set) with each
// element's span.
func (s *jsonScan) array(elem func(vs, ve int)) bool {
	if s.depth++; s.depth > maxJSONDepth {
		return false
	}
	defer func() { s.depth-- }()
	s.i++ // [
	s.space()
	if s.i < len(s.src) && s.src[s.i] == ']' {
		s.i++
		return true
	}
	for {
		vs := s.i
		if !s.value() {
			return false
		}
		if elem != nil {
			elem(vs, s.i)
		}
		if more, ok := s.next(']'); !more {
			return ok
		}
	}
}

// plainString is the content of the JSON string raw (quotes included) when
// it needs no decoding: no escape, valid UTF-8. ok is false otherwise, and
// encoding/json decodes it.
func plainString(raw []byte) (string, bool) {
	if !isPlainString(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	return string(body), true
}

// isPlainString reports whether the JSON string raw (quotes included)
// needs no decoding (plainString).
func isPlainString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(body)
}
