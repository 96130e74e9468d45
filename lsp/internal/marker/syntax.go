package marker

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/scanner"
	"unicode"
)

// A call is one marker as written: diag(re"VAL-x", val-id-invalid, warning).
type call struct {
	name  string
	args  []value
	named map[string]value
}

// valueKind says how an argument was written.
type valueKind int

const (
	kindString valueKind = iota // "text" or `text`
	kindRegexp                  // re"pattern" or re`pattern`
	kindIdent                   // a bare word: a code, a severity, a golden name, a file
	kindInt                     // 42
	kindInFile                  // path:re"pattern" or path:"text": a match anywhere in that file
)

// A value is one argument of a call.
type value struct {
	kind valueKind
	str  string         // the string, the word, or the file of kindInFile
	re   *regexp.Regexp // kindRegexp and kindInFile
	n    int
}

func (v value) String() string {
	switch v.kind {
	case kindString:
		return strconv.Quote(v.str)
	case kindRegexp:
		return "re" + strconv.Quote(v.re.String())
	case kindInFile:
		return v.str + ":re" + strconv.Quote(v.re.String())
	case kindInt:
		return strconv.Itoa(v.n)
	}
	return v.str
}

// parseCalls parses a list of calls separated by commas or blanks.
func parseCalls(src string) ([]call, error) {
	return newParser(src).calls()
}

// parseAnchoredCalls parses a line of the markers section: a location in a
// file (path:re"pattern") followed by calls.
func parseAnchoredCalls(src string) (value, []call, error) {
	p := newParser(src)
	anchor, err := p.value()
	if err != nil {
		return value{}, nil, err
	}
	if anchor.kind != kindInFile {
		return value{}, nil, fmt.Errorf("a markers line starts with a location in a file, such as criteria.md:re\"### VAL-A-001\"; got %s", anchor)
	}
	calls, err := p.calls()
	if err != nil {
		return value{}, nil, err
	}
	if len(calls) == 0 {
		return value{}, nil, fmt.Errorf("no marker after %s", anchor)
	}
	return anchor, calls, nil
}

func (p *parser) calls() ([]call, error) {
	var out []call
	for {
		for p.tok == ',' {
			p.next()
		}
		if p.tok == scanner.EOF {
			break
		}
		c, err := p.call()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, p.err
}

type parser struct {
	s    scanner.Scanner
	tok  rune
	text string
	err  error
}

func newParser(src string) *parser {
	p := &parser{}
	p.s.Init(strings.NewReader(src))
	p.s.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings | scanner.ScanComments | scanner.SkipComments
	// Words may be codes (section-partial), paths (.pi/charters/a/criteria.md)
	// or numbers; one kind of token keeps the grammar small. A word does not
	// start with a slash, so // starts a comment.
	p.s.IsIdentRune = func(ch rune, i int) bool {
		return unicode.IsLetter(ch) || unicode.IsDigit(ch) || strings.ContainsRune("_-.@+", ch) || ch == '/' && i > 0
	}
	p.s.Error = func(s *scanner.Scanner, msg string) {
		if p.err == nil {
			p.err = fmt.Errorf("column %d: %s", s.Position.Column, msg)
		}
	}
	p.next()
	return p
}

func (p *parser) next() {
	p.tok = p.s.Scan()
	p.text = p.s.TokenText()
}

func (p *parser) errorf(format string, args ...any) error {
	if p.err != nil {
		return p.err
	}
	return fmt.Errorf("column %d: %s", p.s.Position.Column, fmt.Sprintf(format, args...))
}

func (p *parser) call() (call, error) {
	if p.tok != scanner.Ident {
		return call{}, p.errorf("want a marker name, got %q", p.text)
	}
	c := call{name: p.text}
	p.next()
	if p.tok != '(' {
		return call{}, p.errorf("want ( after %s", c.name)
	}
	p.next()
	for p.tok != ')' {
		if p.tok == scanner.EOF {
			return call{}, p.errorf("%s( is not closed", c.name)
		}
		if p.tok == scanner.Ident && p.s.Peek() == '=' {
			name := p.text
			p.next() // the name
			p.next() // =
			v, err := p.value()
			if err != nil {
				return call{}, err
			}
			if c.named == nil {
				c.named = map[string]value{}
			}
			if _, dup := c.named[name]; dup {
				return call{}, p.errorf("%s= given twice", name)
			}
			c.named[name] = v
		} else {
			if len(c.named) > 0 {
				return call{}, p.errorf("positional argument after a named one")
			}
			v, err := p.value()
			if err != nil {
				return call{}, err
			}
			c.args = append(c.args, v)
		}
		if p.tok == ',' {
			p.next()
		} else if p.tok != ')' {
			return call{}, p.errorf("want , or ) in %s(, got %q", c.name, p.text)
		}
	}
	p.next()
	return c, p.err
}

func (p *parser) value() (value, error) {
	switch p.tok {
	case scanner.String, scanner.RawString:
		s, err := p.unquote()
		p.next()
		return value{kind: kindString, str: s}, err
	case scanner.Ident:
		word := p.text
		p.next()
		if word == "re" && (p.tok == scanner.String || p.tok == scanner.RawString) {
			re, err := p.regexp()
			return value{kind: kindRegexp, re: re}, err
		}
		if p.tok == ':' {
			p.next()
			v := value{kind: kindInFile, str: word}
			switch {
			case p.tok == scanner.Ident && p.text == "re":
				p.next()
				re, err := p.regexp()
				v.re = re
				return v, err
			case p.tok == scanner.String || p.tok == scanner.RawString:
				s, err := p.unquote()
				p.next()
				v.re = regexp.MustCompile(regexp.QuoteMeta(s))
				return v, err
			}
			return value{}, p.errorf("want re\"pattern\" or \"text\" after %s:", word)
		}
		if n, err := strconv.Atoi(word); err == nil {
			return value{kind: kindInt, n: n}, nil
		}
		return value{kind: kindIdent, str: word}, nil
	}
	return value{}, p.errorf("want an argument, got %q", p.text)
}

func (p *parser) unquote() (string, error) {
	s, err := strconv.Unquote(p.text)
	if err != nil {
		return "", p.errorf("bad string %s: %v", p.text, err)
	}
	return s, nil
}

func (p *parser) regexp() (*regexp.Regexp, error) {
	if p.tok != scanner.String && p.tok != scanner.RawString {
		return nil, p.errorf("want a string after re")
	}
	s, err := p.unquote()
	if err != nil {
		return nil, err
	}
	p.next()
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, p.errorf("bad regexp %q: %v", s, err)
	}
	return re, nil
}
