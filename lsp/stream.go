package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// Transport limits. A header block, a message and the number of requests
// read but not yet answered are all bounded, so no client — a broken one or
// a hostile one — can make the server allocate without limit.
const (
	// maxHeaderBytes bounds one frame's header block (every line of it).
	maxHeaderBytes = 8 << 10
	// maxFrameBytes bounds a message body: a document at the 16 MB
	// analysis limit, JSON-escaped, fits. A larger frame is read past
	// (never held) and answered with an error.
	maxFrameBytes = 64 << 20
	// maxOwed bounds the requests read whose answer is not yet written:
	// past it the server stops reading until the client reads answers
	// (backpressure), so 100k pipelined requests nobody reads cost at most
	// this many.
	maxOwed = 64
)

// errFraming ends the connection: after a header that cannot be read, the
// next message's start is unknown.
var errFraming = errors.New("invalid LSP header: the connection cannot continue")

// selfPaced are requests not counted against maxOwed: they may wait on the
// client's answer to a request of ours (workspace/applyEdit), which the
// read loop must stay free to read. handler.go bounds them instead.
var selfPaced = map[string]bool{
	protocol.MethodWorkspaceExecuteCommand: true,
}

// stream is the LSP transport (Content-Length framing) with bounds:
//
//   - a header block over maxHeaderBytes, or one without a usable
//     Content-Length, ends the connection cleanly (framing is lost);
//   - a body over maxFrameBytes is read past in small chunks and answered
//     with InvalidRequest (with the request's id when it shows in the first
//     bytes), and reading goes on;
//   - a body that is empty, not JSON, not a message, or an array (a JSON-RPC
//     batch, which LSP does not use: `[]`, `[1]`, `[{…}]`) is answered with
//     ParseError or InvalidRequest, id null, and reading goes on;
//   - at most maxOwed requests are read but unanswered; then Read waits.
type stream struct {
	conn io.ReadWriteCloser
	in   *bufio.Reader
	log  *zap.Logger
	body []byte // reused between frames

	wmu  sync.Mutex // one frame at a time on the wire
	wbuf []byte     // the frame being written, reused

	slots  chan struct{} // a token per owed answer
	owedMu sync.Mutex
	owed   map[string]int // owed answers by request id
	closed chan struct{}
	once   sync.Once
}

func newStream(conn io.ReadWriteCloser, log *zap.Logger) *stream {
	return &stream{
		conn:   conn,
		in:     bufio.NewReaderSize(conn, 64<<10),
		log:    log,
		slots:  make(chan struct{}, maxOwed),
		owed:   map[string]int{},
		closed: make(chan struct{}),
	}
}

// Read returns the next message. The returned request borrows the read
// buffer until the next Read, as jsonrpc2.Stream allows.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		// Backpressure: a token for the frame about to be read, given back
		// at once unless it is a request whose answer we then owe.
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		case <-s.closed:
			return nil, 0, io.ErrClosedPipe
		}
		msg, n, err := s.readMessage(ctx)
		if call, ok := msg.(*jsonrpc2.Call); ok && !selfPaced[call.Method()] {
			s.owedMu.Lock()
			s.owed[idKey(call.ID())]++
			s.owedMu.Unlock()
		} else {
			<-s.slots
		}
		if err != nil || msg != nil {
			return msg, n, err
		}
	}
}

// readMessage reads one frame; a frame it answered itself yields (nil,
// 0, nil).
func (s *stream) readMessage(ctx context.Context) (jsonrpc2.Message, int64, error) {
	length, header, err := s.readHeader()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.log.Warn("unreadable message header: closing the connection", zap.Error(err))
		}
		return nil, 0, err
	}
	if length > maxFrameBytes {
		id, err := s.skip(length)
		if err != nil {
			return nil, 0, err
		}
		s.log.Warn("message over the size limit: skipped", zap.Int64("bytes", length))
		return nil, 0, s.answer(ctx, id, jsonrpc2.InvalidRequest,
			fmt.Sprintf("message of %d MB is over the %d MB limit", length>>20, maxFrameBytes>>20))
	}
	if int64(cap(s.body)) < length || cap(s.body) > 1<<20 && length < 1<<16 {
		s.body = make([]byte, length) // grow, or give back a big buffer
	}
	body := s.body[:length]
	if _, err := io.ReadFull(s.in, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, err
	}
	n := int64(header) + length
	if i := firstNonSpace(body); i < len(body) && body[i] == '[' {
		s.log.Warn("JSON-RPC batch refused", zap.Int("bytes", len(body)))
		return nil, 0, s.answer(ctx, jsonrpc2.ID{}, jsonrpc2.InvalidRequest, "batches are not supported: send one message per frame")
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		code, text := jsonrpc2.InvalidRequest, "invalid JSON-RPC message"
		if errors.Is(err, jsonrpc2.ErrParse) {
			code, text = jsonrpc2.ParseError, "invalid JSON"
		}
		s.log.Warn("unreadable message", zap.Int("bytes", len(body)), zap.Error(err))
		return nil, 0, s.answer(ctx, jsonrpc2.ID{}, code, text)
	}
	return msg, n, nil
}

// readHeader reads one header block and returns the Content-Length. A
// frame without one (or with a negative one) has an unknown end:
// errFraming. Content-Length: 0 is an empty (malformed) message whose end
// is known: it is answered, and reading goes on.
func (s *stream) readHeader() (length int64, size int, err error) {
	length = -1
	for {
		line, err := s.in.ReadSlice('\n')
		size += len(line)
		if errors.Is(err, bufio.ErrBufferFull) || size > maxHeaderBytes {
			return 0, 0, fmt.Errorf("%w: header over %d bytes", errFraming, maxHeaderBytes)
		}
		if err != nil {
			if errors.Is(err, io.EOF) && size > 0 {
				err = io.ErrUnexpectedEOF
			}
			return 0, 0, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, 0, fmt.Errorf("%w: %q", errFraming, truncate(line))
		}
		if bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
			if err != nil || n < 0 {
				return 0, 0, fmt.Errorf("%w: Content-Length %q", errFraming, truncate(value))
			}
			length = n
		}
	}
	if length < 0 {
		return 0, 0, fmt.Errorf("%w: no Content-Length", errFraming)
	}
	return length, size, nil
}

// skip reads past a body of length bytes without keeping it, and returns
// the request's id when it shows in the first bytes (zero otherwise).
func (s *stream) skip(length int64) (jsonrpc2.ID, error) {
	head := make([]byte, min(length, 4096))
	if _, err := io.ReadFull(s.in, head); err != nil {
		return jsonrpc2.ID{}, io.ErrUnexpectedEOF
	}
	if _, err := io.CopyN(io.Discard, s.in, length-int64(len(head))); err != nil {
		return jsonrpc2.ID{}, io.ErrUnexpectedEOF
	}
	return peekID(head), nil
}

// peekID finds the "id" member of a JSON-RPC message from its first bytes,
// as far as they go.
func peekID(head []byte) jsonrpc2.ID {
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return jsonrpc2.ID{}
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return jsonrpc2.ID{}
		}
		if key != "id" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return jsonrpc2.ID{} // the value runs past what was read
			}
			continue
		}
		switch v, _ := dec.Token(); v := v.(type) {
		case json.Number:
			if n, err := v.Int64(); err == nil {
				return jsonrpc2.NewNumberID(n)
			}
		case string:
			return jsonrpc2.NewStringID(v)
		}
		return jsonrpc2.ID{}
	}
	return jsonrpc2.ID{}
}

// answer writes an error response for a frame the server refused.
func (s *stream) answer(ctx context.Context, id jsonrpc2.ID, code jsonrpc2.Code, msg string) error {
	_, err := s.Write(ctx, jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(code, msg)))
	return err
}

// Write frames msg as one write, composed in a buffer reused from message
// to message. Writing the answer to a request read by Read gives back its
// token: the client has the answer on the wire (or in its pipe), so another
// request may be read.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.wmu.Lock()
	buf := jsonrpc2.AppendMessage(append(s.wbuf[:0], make([]byte, frameHeaderRoom)...), msg)
	body := buf[frameHeaderRoom:]
	n, err := s.conn.Write(buf[putFrameHeader(buf, frameHeaderRoom):])
	key, answer := answeredID(body)
	if cap(buf) <= 8<<20 {
		s.wbuf = buf // a buffer grown for one huge message is not kept
	}
	s.wmu.Unlock()
	if answer {
		s.owedMu.Lock()
		if s.owed[key] > 0 {
			if s.owed[key]--; s.owed[key] == 0 {
				delete(s.owed, key)
			}
			<-s.slots
		}
		s.owedMu.Unlock()
	}
	return int64(n), err
}

// frameHeaderRoom is the most a frame header takes.
const frameHeaderRoom = len("Content-Length: ") + 20 + len("\r\n\r\n")

// writeFrame writes frame[at:], a notification's encoded message, as one
// frame: its header goes into the frame's bytes before at (at least
// frameHeaderRoom of them), so that a large message is sent without being
// copied.
func (s *stream) writeFrame(frame []byte, at int) error {
	start := putFrameHeader(frame, at)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.conn.Write(frame[start:])
	return err
}

// putFrameHeader writes the header of the message frame[at:] into the
// bytes just before at (frameHeaderRoom of them at most) and returns where
// the frame starts.
func putFrameHeader(frame []byte, at int) (start int) {
	var hdr [frameHeaderRoom]byte
	header := strconv.AppendInt(append(hdr[:0], "Content-Length: "...), int64(len(frame)-at), 10)
	header = append(header, "\r\n\r\n"...)
	start = at - len(header)
	copy(frame[start:], header)
	return start
}

// Close closes the connection and releases a Read waiting for room.
func (s *stream) Close() error {
	s.once.Do(func() { close(s.closed) })
	return s.conn.Close()
}

// answeredID returns the id key of an encoded response (a message with an
// id and no method), as jsonrpc2 encodes it: {"jsonrpc":"2.0","id":…}.
// It only scans the id: the rest of the message (a large result) is not
// parsed.
func answeredID(body []byte) (string, bool) {
	const prefix = `{"jsonrpc":"2.0","id":`
	rest, ok := bytes.CutPrefix(body, []byte(prefix))
	if !ok || len(rest) == 0 {
		return "", false
	}
	var key string
	end := 0
	switch c := rest[0]; {
	case c == '-' || '0' <= c && c <= '9':
		for end = 1; end < len(rest) && '0' <= rest[end] && rest[end] <= '9'; end++ {
		}
		key = "n:" + string(rest[:end])
	case c == '"':
		for end = 1; end < len(rest) && rest[end] != '"'; end++ {
			if rest[end] == '\\' {
				end++
			}
		}
		end++
		var v string
		if end > len(rest) || json.Unmarshal(rest[:end], &v) != nil {
			return "", false
		}
		key = "s:" + v
	default:
		return "", false // null: an answer to no request of the client's
	}
	if bytes.HasPrefix(rest[end:], []byte(`,"method"`)) {
		return "", false // a request of ours, not an answer
	}
	return key, true
}

// idKey is a request id as answeredID reads it back.
func idKey(id jsonrpc2.ID) string {
	if n, ok := id.Number(); ok {
		return "n:" + strconv.FormatInt(n, 10)
	}
	if v, ok := id.StringValue(); ok {
		return "s:" + v
	}
	return ""
}

func truncate(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

func firstNonSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
