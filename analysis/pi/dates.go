package pi

import (
	"time"
	"unicode/utf16"
)

// Dates are read as upstream reads them: with JavaScript's Date.parse as
// Node's V8 implements it. V8 first tries the ES date-time string format and
// falls back to a permissive legacy parser, so "2026-11-1", "2026/11/01",
// "Nov 2026", "2026-02-30" (March 2), "1" (2001) and "+002026-11-01" are all
// dates to upstream, while "13", "x2026" and "10pm" are not.
//
// This file is a Go rendering of V8's rules in v8/v8 src/date/dateparser.h,
// dateparser-inl.h and dateparser.cc (read at 0fa243a, be01425, 878ccb3:
// DateParser::Parse, ParseES5DateTime, the tokenizer, the keyword table and
// the Day/Time/TimeZone composers), plus ParseDateTimeString in
// src/builtins/builtins-date.cc (MakeDay, MakeTime, MakeDate, the UTC offset
// and TimeClip). testdata/jsdate/golden.tsv holds Node's verdicts for a few
// thousand strings; TestJSDateGolden checks this file against them and, where
// node is installed, the file against node.
//
// One deliberate difference: V8 reads a date-time without a zone (and every
// legacy form without one) in the machine's local time zone; we read it in
// UTC, which is what Node does with TZ=UTC and the only reading that does not
// depend on the machine. It changes which strings are valid only at the very
// edge of the range (±275760 years).

// JSDate is what Date.parse made of a string.
type JSDate struct {
	// Ms is the time value: milliseconds since 1970-01-01T00:00:00Z.
	Ms int64
	// ISO is set when the whole string is in the ES date-time string format
	// (2026-11-01, 2026-11-01T10:00:00Z, +002026-11); otherwise V8's legacy
	// parser read it, by rules a reader cannot be expected to know.
	ISO bool
	// Local is set when the string names no time zone: V8 then uses the
	// machine's local time (a date-only ISO string is UTC, not local).
	Local bool
	// Rolled is set when the day does not exist in its month and V8 rolled
	// it over into the next (2026-02-30 is March 2).
	Rolled bool
	// TwoDigitYear is set when the legacy parser read a year below 100 as
	// 19xx or 20xx (or supplied 2001 for a string without a year).
	TwoDigitYear bool
}

// Time returns d as a UTC time.Time.
func (d JSDate) Time() time.Time { return time.UnixMilli(d.Ms).UTC() }

// ParseJSDate parses s as JavaScript's Date.parse does in Node; ok is false
// exactly when Date.parse returns NaN.
func ParseJSDate(s string) (JSDate, bool) {
	var p dateParser
	p.in = utf16.Encode([]rune(s))
	// V8 reads a NUL character as the end of the input.
	for i, c := range p.in {
		if c == 0 {
			p.in = p.in[:i]
			break
		}
	}
	p.tz = zoneComposer{hour: none, minute: none}
	p.next = p.scan()
	return p.parse()
}

// ParseTime parses s as upstream's Date.parse would (see ParseJSDate).
func ParseTime(s string) (time.Time, bool) {
	d, ok := ParseJSDate(s)
	if !ok {
		return time.Time{}, false
	}
	return d.Time(), true
}

// none marks a component that was not given (V8's kNone).
const none = int(^uint(0) >> 1)

// maxSmi is the largest small integer of 64-bit V8 without pointer
// compression, as Node builds it; a UTC offset of more seconds is refused.
const maxSmi = 1<<31 - 1

type tokenKind int8

const (
	tokInvalid tokenKind = iota // the ES format failed beyond repair
	tokUnknown                  // any other character, or a parenthesised group
	tokSpace                    // one ASCII white-space character
	tokNumber                   // a run of ASCII digits
	tokSymbol                   // one of : - + . )
	tokEnd                      // end of input (or a NUL)
	tokWord                     // a run of characters >= 'A'
)

type wordKind int8

const (
	wordOther wordKind = iota
	wordMonth
	wordZone
	wordTimeSeparator // "T"
	wordAMPM
)

type dateToken struct {
	kind   tokenKind
	length int // characters (UTF-16 code units) read
	// value is the number (its first 9 digits), the symbol, or the word's
	// month number, zone offset in hours or AM/PM hour offset.
	value int
	word  wordKind
}

func (t dateToken) isSymbol(c byte) bool { return t.kind == tokSymbol && t.value == int(c) }
func (t dateToken) isSign() bool         { return t.isSymbol('+') || t.isSymbol('-') }

func (t dateToken) sign() int {
	if t.value == '+' {
		return 1
	}
	return -1
}
func (t dateToken) isNumberOfLength(n int) bool {
	return t.kind == tokNumber && t.length == n
}

// isZ is the one-letter zone "Z".
func (t dateToken) isZ() bool {
	return t.kind == tokWord && t.word == wordZone && t.length == 1 && t.value == 0
}

// dateKeywords is V8's keyword table, in its lookup order: a word matches an
// entry when its first three letters (lower-cased, zero-padded) are the
// entry's, and only a month name may be longer than three letters.
var dateKeywords = []dateKeyword{
	{"jan", wordMonth, 1}, {"feb", wordMonth, 2}, {"mar", wordMonth, 3}, {"apr", wordMonth, 4},
	{"may", wordMonth, 5}, {"jun", wordMonth, 6}, {"jul", wordMonth, 7}, {"aug", wordMonth, 8},
	{"sep", wordMonth, 9}, {"oct", wordMonth, 10}, {"nov", wordMonth, 11}, {"dec", wordMonth, 12},
	{"am", wordAMPM, 0}, {"pm", wordAMPM, 12},
	{"ut", wordZone, 0}, {"utc", wordZone, 0}, {"z", wordZone, 0}, {"gmt", wordZone, 0},
	{"cdt", wordZone, -5}, {"cst", wordZone, -6}, {"edt", wordZone, -4}, {"est", wordZone, -5},
	{"mdt", wordZone, -6}, {"mst", wordZone, -7}, {"pdt", wordZone, -7}, {"pst", wordZone, -8},
	{"t", wordTimeSeparator, 0},
}

type dateKeyword struct {
	prefix string
	kind   wordKind
	value  int
}

// dateKeywordPrefixes are dateKeywords' prefixes as zero-padded code units.
var dateKeywordPrefixes = func() [][3]uint16 {
	out := make([][3]uint16, len(dateKeywords))
	for i, k := range dateKeywords {
		for j := 0; j < len(k.prefix); j++ {
			out[i][j] = uint16(k.prefix[j])
		}
	}
	return out
}()

type dateParser struct {
	in   []uint16
	pos  int
	next dateToken // the scanner's look-ahead

	day  dayComposer
	time timeComposer
	tz   zoneComposer
}

func (p *dateParser) ch() uint16 {
	if p.pos < len(p.in) {
		return p.in[p.pos]
	}
	return 0
}

func isDigit(c uint16) bool { return c >= '0' && c <= '9' }

// isWordChar: a word is a run of characters from 'A' up, non-ASCII ones
// included, except white space.
func isWordChar(c uint16) bool { return c >= 'A' && !isDateSpace(c) }

// isDateSpace is V8's IsWhiteSpace: JavaScript's white space without the
// line terminators.
func isDateSpace(c uint16) bool {
	switch c {
	case '\t', '\v', '\f', ' ', 0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

// scan reads the next token.
func (p *dateParser) scan() dateToken {
	start := p.pos
	c := p.ch()
	switch {
	case c == 0:
		return dateToken{kind: tokEnd}
	case isDigit(c):
		// V8 skips leading zeros, then keeps the first nine digits; the
		// length counts them all.
		for p.ch() == '0' {
			p.pos++
		}
		n, sig := 0, 0
		for ; isDigit(p.ch()); sig++ {
			if sig < 9 {
				n = n*10 + int(p.ch()-'0')
			}
			p.pos++
		}
		return dateToken{kind: tokNumber, length: p.pos - start, value: n}
	case c == ':' || c == '-' || c == '+' || c == '.' || c == ')':
		p.pos++
		return dateToken{kind: tokSymbol, length: 1, value: int(c)}
	case isWordChar(c):
		// V8 lower-cases by or-ing 0x20, which only changes letters.
		var prefix [3]uint16
		for isWordChar(p.ch()) {
			if n := p.pos - start; n < 3 {
				prefix[n] = p.ch() | 0x20
			}
			p.pos++
		}
		t := dateToken{kind: tokWord, length: p.pos - start}
		for i, k := range dateKeywords {
			if dateKeywordPrefixes[i] == prefix && (t.length <= 3 || k.kind == wordMonth) {
				t.word, t.value = k.kind, k.value
				break
			}
		}
		return t
	case isDateSpace(c) || c == '\n' || c == '\r':
		p.pos++
		return dateToken{kind: tokSpace, length: 1}
	case c == '(':
		// Skip a parenthesised group, nested ones included, to its end.
		for depth := 0; ; {
			switch p.ch() {
			case ')':
				depth--
			case '(':
				depth++
			}
			p.pos++
			if depth <= 0 || p.ch() == 0 {
				break
			}
		}
		return dateToken{kind: tokUnknown, length: 1}
	}
	p.pos++
	return dateToken{kind: tokUnknown, length: 1}
}

// take returns the look-ahead token and scans the next one.
func (p *dateParser) take() dateToken {
	t := p.next
	p.next = p.scan()
	return t
}

// skip consumes the look-ahead when it is symbol c.
func (p *dateParser) skip(c byte) bool {
	if p.next.isSymbol(c) {
		p.next = p.scan()
		return true
	}
	return false
}

func (p *dateParser) parse() (JSDate, bool) {
	next := p.parseES()
	if next.kind == tokInvalid {
		return JSDate{}, false
	}
	read := p.day.n > 0 // a number has been read
	for t := next; t.kind != tokEnd; t = p.take() {
		switch {
		case t.kind == tokNumber:
			read = true
			n := t.value
			switch {
			case p.skip(':'):
				if p.skip(':') { // "n::" is an hour with zero minutes
					if p.time.n > 0 {
						return JSDate{}, false
					}
					p.time.add(n)
					p.time.add(0)
				} else {
					if !p.time.add(n) {
						return JSDate{}, false
					}
					if p.next.isSymbol('.') {
						p.take()
					}
				}
			case p.skip('.') && p.time.expecting(n): // the '.' is consumed either way
				p.time.add(n)
				if p.next.kind != tokNumber {
					return JSDate{}, false
				}
				p.time.addFinal(milliseconds(p.take()))
			case p.tz.expecting(n):
				p.tz.minute = n
			case p.time.expecting(n):
				p.time.addFinal(n)
				// The time must be followed by the end, a space, Z or a sign.
				if k := p.next; k.kind != tokEnd && k.kind != tokSpace && !k.isZ() && !k.isSign() {
					return JSDate{}, false
				}
			default:
				if !p.day.add(n) {
					return JSDate{}, false
				}
				p.skip('-')
			}
		case t.kind == tokWord:
			switch {
			case t.word == wordAMPM && p.time.n > 0:
				p.time.hourOffset, p.time.offsetSet = t.value, true
			case t.word == wordMonth:
				p.day.namedMonth = t.value
				p.skip('-')
			case t.word == wordZone && read:
				p.tz.set(t.value)
			default:
				// Other words may only come before the first number, and
				// must be separated from it.
				if read || p.next.kind == tokNumber {
					return JSDate{}, false
				}
			}
		case t.isSign() && (p.tz.isUTC() || p.time.n > 0):
			// A UTC offset, after a zone name or a time.
			p.tz.sign = t.sign()
			n, length := 0, 0
			if p.next.kind == tokNumber {
				k := p.take()
				n, length = k.value, k.length
			}
			read = true
			switch {
			case p.next.isSymbol(':'):
				p.tz.hour, p.tz.minute = n, none
			case length == 1 || length == 2:
				p.tz.hour, p.tz.minute = n, 0
			case length == 3 || length == 4:
				p.tz.hour, p.tz.minute = n/100, n%100
			default:
				return JSDate{}, false
			}
		case (t.isSign() || t.isSymbol(')')) && read:
			return JSDate{}, false
		}
		// Anything else (spaces, other characters, a stray ':' or '.') is ignored.
	}
	year, month, day, ok := p.day.write()
	if !ok {
		return JSDate{}, false
	}
	hour, minute, second, ms, ok := p.time.write()
	if !ok {
		return JSDate{}, false
	}
	offset, zoned, ok := p.tz.write()
	if !ok {
		return JSDate{}, false
	}
	d := JSDate{ISO: p.day.iso, Local: !zoned, Rolled: day > daysIn(year, month), TwoDigitYear: !p.day.iso && p.day.twoDigit}
	if year < -1000000 || year > 1000000 { // MakeDay's range
		return JSDate{}, false
	}
	v := (daysFromCivil(year, month)+int64(day-1))*864e5 +
		int64(hour)*3600000 + int64(minute)*60000 + int64(second)*1000 + int64(ms) - offset*1000
	if v < -864e13 || v > 864e13 { // TimeClip
		return JSDate{}, false
	}
	d.Ms = v
	return d, true
}

// parseES reads as much of the ES date-time string format
// ([+-]yyyyyy|yyyy)[-MM[-DD]][THH:mm[:ss[.sss]][Z|(+|-)hh:mm|(+|-)hhmm] as
// the input holds. It returns the end token when the whole input was read,
// the invalid token when a time part is malformed, and otherwise the token
// the legacy parser continues with; what it read stays in the composers.
func (p *dateParser) parseES() dateToken {
	if p.next.isSign() {
		sign := p.take()
		if !p.next.isNumberOfLength(6) {
			return sign
		}
		year := p.take().value
		if sign.value == '-' && year == 0 {
			return sign // -000000 is not a year; its digits are gone
		}
		p.day.add(sign.sign() * year)
	} else if p.next.isNumberOfLength(4) {
		p.day.add(p.take().value)
	} else {
		return p.take()
	}
	if p.skip('-') {
		if !p.next.isNumberOfLength(2) || !isMonth(p.next.value) {
			return p.take()
		}
		p.day.add(p.take().value)
		if p.skip('-') {
			if !p.next.isNumberOfLength(2) || !isDay(p.next.value) {
				return p.take()
			}
			p.day.add(p.take().value)
		}
	}
	if !(p.next.kind == tokWord && p.next.word == wordTimeSeparator) {
		if p.next.kind != tokEnd {
			return p.take()
		}
	} else {
		p.take()
		if !p.next.isNumberOfLength(2) || p.next.value > 24 {
			return dateToken{kind: tokInvalid}
		}
		h24 := p.next.value == 24 // only 24:00[:00[.000]]
		p.time.add(p.take().value)
		if !p.skip(':') || !p.next.isNumberOfLength(2) || !isMinute(p.next.value) || h24 && p.next.value > 0 {
			return dateToken{kind: tokInvalid}
		}
		p.time.add(p.take().value)
		if p.skip(':') {
			if !p.next.isNumberOfLength(2) || !isMinute(p.next.value) || h24 && p.next.value > 0 {
				return dateToken{kind: tokInvalid}
			}
			p.time.add(p.take().value)
			if p.skip('.') {
				if p.next.kind != tokNumber || h24 && p.next.value > 0 {
					return dateToken{kind: tokInvalid}
				}
				p.time.add(milliseconds(p.take()))
			}
		}
		switch {
		case p.next.isZ():
			p.take()
			p.tz.set(0)
		case p.next.isSign():
			p.tz.sign = p.take().sign()
			if p.next.isNumberOfLength(4) { // hhmm
				hm := p.take().value
				if !isHour(hm/100) || !isMinute(hm%100) {
					return dateToken{kind: tokInvalid}
				}
				p.tz.hour, p.tz.minute = hm/100, hm%100
			} else { // hh:mm
				if !p.next.isNumberOfLength(2) || !isHour(p.next.value) {
					return dateToken{kind: tokInvalid}
				}
				p.tz.hour = p.take().value
				if !p.skip(':') || !p.next.isNumberOfLength(2) || !isMinute(p.next.value) {
					return dateToken{kind: tokInvalid}
				}
				p.tz.minute = p.take().value
			}
		}
		if p.next.kind != tokEnd {
			return dateToken{kind: tokInvalid}
		}
	}
	// A date-only form is UTC; a date-time without a zone is local time.
	if p.tz.hour == none && p.time.n == 0 {
		p.tz.set(0)
	}
	p.day.iso = true
	return dateToken{kind: tokEnd}
}

// milliseconds reads a fraction's first three digits, whatever its length.
func milliseconds(t dateToken) int {
	n, length := t.value, t.length
	switch {
	case length == 1:
		return n * 100
	case length == 2:
		return n * 10
	case length > 3:
		length = min(length, 9)
		for ; length > 3; length-- {
			n /= 10
		}
	}
	return n
}

func isMonth(n int) bool  { return n >= 1 && n <= 12 }
func isDay(n int) bool    { return n >= 1 && n <= 31 }
func isHour(n int) bool   { return n >= 0 && n <= 23 }
func isMinute(n int) bool { return n >= 0 && n <= 59 }

// dayComposer collects up to three date numbers and a month name.
type dayComposer struct {
	comp       [3]int
	n          int
	namedMonth int // 0 when none
	iso        bool
	twoDigit   bool // write mapped a year below 100
}

func (d *dayComposer) add(v int) bool {
	if d.n == len(d.comp) {
		return false
	}
	d.comp[d.n] = v
	d.n++
	return true
}

// write orders the numbers into year, month (1-12) and day as V8 does.
// Missing month and day are 1; a missing year is 0, which becomes 2000. The
// numbers are padded before V8 looks at how many there were, so its
// "only a day" and "month, day" cases never occur: one or two numbers are
// read as if a 1 followed.
func (d *dayComposer) write() (year, month, day int, ok bool) {
	if d.n == 0 {
		return 0, 0, 0, false
	}
	c := d.comp
	for i := d.n; i < len(c); i++ {
		c[i] = 1
	}
	switch {
	case d.namedMonth == 0 && (d.iso || !isDay(c[0])):
		year, month, day = c[0], c[1], c[2]
	case d.namedMonth == 0:
		month, day, year = c[0], c[1], c[2]
	case !isDay(c[0]):
		month, year, day = d.namedMonth, c[0], c[1]
	default:
		month, day, year = d.namedMonth, c[0], c[1]
	}
	if !d.iso && year >= 0 && year <= 99 {
		d.twoDigit = true
		if year <= 49 {
			year += 2000
		} else {
			year += 1900
		}
	}
	return year, month, day, isMonth(month) && isDay(day)
}

// timeComposer collects hour, minute, second and millisecond.
type timeComposer struct {
	comp       [4]int
	n          int
	hourOffset int  // 0 for AM, 12 for PM
	offsetSet  bool // an AM or PM was given
}

func (t *timeComposer) add(v int) bool {
	if t.n == len(t.comp) {
		return false
	}
	t.comp[t.n] = v
	t.n++
	return true
}

// addFinal adds v and zeroes the rest.
func (t *timeComposer) addFinal(v int) {
	if t.add(v) {
		t.n = len(t.comp)
	}
}

func (t *timeComposer) expecting(v int) bool {
	return t.n == 1 && isMinute(v) || t.n == 2 && isMinute(v) || t.n == 3 && v >= 0 && v <= 999
}

func (t *timeComposer) write() (hour, minute, second, ms int, ok bool) {
	c := t.comp
	for i := t.n; i < len(c); i++ {
		c[i] = 0
	}
	hour, minute, second, ms = c[0], c[1], c[2], c[3]
	if t.offsetSet {
		if hour < 0 || hour > 12 {
			return 0, 0, 0, 0, false
		}
		hour = hour%12 + t.hourOffset
	}
	if !isHour(hour) || !isMinute(minute) || !isMinute(second) || ms < 0 || ms > 999 {
		if hour != 24 || minute != 0 || second != 0 || ms != 0 {
			return 0, 0, 0, 0, false
		}
	}
	return hour, minute, second, ms, true
}

// zoneComposer collects a UTC offset.
type zoneComposer struct {
	sign         int // 0 when none
	hour, minute int // none when not given
}

func (z *zoneComposer) set(hours int) {
	z.sign = 1
	if hours < 0 {
		z.sign = -1
	}
	z.hour, z.minute = hours*z.sign, 0
}

func (z *zoneComposer) expecting(v int) bool {
	return z.hour != none && z.minute == none && isMinute(v)
}
func (z *zoneComposer) isUTC() bool { return z.hour == 0 && z.minute == 0 }

// write returns the offset in seconds east of UTC; zoned is false when the
// string named no zone. V8 computes the seconds in unsigned 32-bit
// arithmetic, so a huge hour wraps around rather than failing.
func (z *zoneComposer) write() (offset int64, zoned, ok bool) {
	if z.sign == 0 {
		return 0, false, true
	}
	h, m := z.hour, z.minute
	if h == none {
		h = 0
	}
	if m == none {
		m = 0
	}
	total := uint32(h)*3600 + uint32(m)*60
	if total > maxSmi {
		return 0, true, false
	}
	return int64(z.sign) * int64(total), true, true
}

// daysFromCivil is the number of days from 1970-01-01 to the first of month
// (1-12) of year in the proleptic Gregorian calendar.
func daysFromCivil(year, month int) int64 {
	y, m := int64(year), int64(month)
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp + 2) / 5
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func validDate(s string) bool {
	_, ok := ParseJSDate(s)
	return ok
}
