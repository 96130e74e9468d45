package verify

import (
	"fmt"
	"sync"
)

// capture keeps the first and the last bytes of an output of any length
// within max bytes: a quarter for the beginning (what ran, the first
// error), the rest for the end (the summary a test runner prints last).
type capture struct {
	mu    sync.Mutex
	head  []byte
	tail  []byte // a ring once full
	next  int    // where the ring writes next
	full  bool
	total int64
	max   int
}

func newCapture(max int) *capture {
	return &capture{max: max}
}

func (c *capture) Write(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	headMax := c.max / 4
	if n := min(headMax-len(c.head), len(p)); n > 0 {
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	tailMax := c.max - headMax
	for len(p) > 0 {
		if !c.full {
			n := min(tailMax-len(c.tail), len(p))
			c.tail = append(c.tail, p[:n]...)
			p = p[n:]
			if len(c.tail) == tailMax {
				c.full = true
			}
			continue
		}
		n := copy(c.tail[c.next:], p)
		c.next = (c.next + n) % tailMax
		p = p[n:]
	}
}

// Bytes is the output kept, with a line saying how many bytes were left
// out between its beginning and its end.
func (c *capture) Bytes() (out []byte, total int64, truncated bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out = append([]byte(nil), c.head...)
	kept := int64(len(c.head) + len(c.tail))
	if c.total > kept {
		out = fmt.Appendf(out, "\n[charter-lsp: %d bytes of output left out here]\n", c.total-kept)
	}
	if c.full {
		out = append(out, c.tail[c.next:]...)
		out = append(out, c.tail[:c.next]...)
	} else {
		out = append(out, c.tail...)
	}
	return out, c.total, c.total > kept
}
