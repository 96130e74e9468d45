package source

import "sync/atomic"

// Spare is a copy of a text made ahead of the text's next edit, off that
// edit's path: Start copies the text in the background, into memory of
// its own with room to grow, and the splice of the next version
// (ApplyChangesSpare) then writes in that memory what the edit moves — the bytes after it,
// shifted, and its own text — instead of allocating and copying the
// whole text while the edit waits. On a large document that copy is
// most of what a keystroke allocates and the memory-bound part of its
// path; made after the version before was published, it runs while the
// client reads the publish.
//
// The text a spare copies is never written. The spare's memory is
// written by its own goroutine until the copy is done, then by the one
// edit that takes it, before the version it becomes is handed to anyone:
// no reader sees it partly made, and a spare is taken at most once.
type Spare struct {
	of    []byte
	room  int
	done  chan struct{}
	buf   []byte // written before done is closed
	taken atomic.Bool
}

// NewSpare is a spare of text with room bytes to grow; Start makes it.
func NewSpare(text []byte, room int) *Spare {
	return &Spare{of: text, room: max(room, 0), done: make(chan struct{})}
}

// Start copies the text in the background. Call it once.
func (s *Spare) Start() {
	go func() {
		s.buf = append(make([]byte, 0, len(s.of)+s.room), s.of...)
		close(s.done)
	}()
}

// Wait blocks until the copy is made (tests and benchmarks).
func (s *Spare) Wait() { <-s.done }

// splice is splice(src, span, text) written in the spare's memory, when
// src is the text the spare copies, the copy is made, the new text fits
// its room, and no one took the spare before. It never waits for the
// copy: one not yet made leaves the splice to allocate (ok false).
func (s *Spare) splice(src []byte, span Span, text string) (out []byte, ok bool) {
	if s == nil || len(src) != len(s.of) || len(src) > 0 && &src[0] != &s.of[0] {
		return nil, false
	}
	select {
	case <-s.done:
	default:
		return nil, false
	}
	if span.End < span.Start {
		span.Start, span.End = span.End, span.Start
	}
	// s.buf is read only by the one that takes the spare (two edits of
	// one text may ask at once): the room is known without it.
	n := len(src) - span.Len() + len(text)
	if n > len(s.of)+s.room || s.taken.Swap(true) {
		return nil, false
	}
	out = s.buf[:max(n, len(s.buf))]
	copy(out[span.Start+len(text):], s.buf[span.End:]) // memmove: overlapping
	copy(out[span.Start:], text)
	s.buf = nil
	return out[:n:n], true
}
