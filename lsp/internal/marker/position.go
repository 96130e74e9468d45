package marker

import (
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// mapper converts between byte offsets and LSP positions (UTF-16 columns;
// lines end at \n, \r\n or \r). The harness has its own, written apart from
// the server's analysis/source index, so a bug there cannot hide itself by
// placing the expectation where it places the diagnostic.
type mapper struct {
	text  string
	lines []int // byte offset of each line's start
}

func newMapper(text string) *mapper {
	m := &mapper{text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			m.lines = append(m.lines, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// lineStart and lineEnd bound a line's content (without its terminator).
func (m *mapper) lineStart(line int) int { return m.lines[line] }

func (m *mapper) lineEnd(line int) int {
	end := len(m.text)
	if line+1 < len(m.lines) {
		end = m.lines[line+1]
	}
	for end > m.lines[line] && (m.text[end-1] == '\n' || m.text[end-1] == '\r') {
		end--
	}
	return end
}

func (m *mapper) lineOf(off int) int {
	line := 0
	for line+1 < len(m.lines) && m.lines[line+1] <= off {
		line++
	}
	return line
}

func (m *mapper) position(off int) protocol.Position {
	line := m.lineOf(off)
	col := 0
	for _, r := range m.text[m.lines[line]:min(off, m.lineEnd(line))] {
		col += utf16.RuneLen(r)
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func (m *mapper) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: m.position(start), End: m.position(end)}
}

// offset is the byte offset of a position (clamped to its line).
func (m *mapper) offset(p protocol.Position) int {
	if int(p.Line) >= len(m.lines) {
		return len(m.text)
	}
	off, end := m.lines[p.Line], m.lineEnd(int(p.Line))
	for col := 0; off < end && col < int(p.Character); {
		r, size := utf8.DecodeRuneInString(m.text[off:end])
		col += utf16.RuneLen(r)
		off += size
	}
	return off
}
