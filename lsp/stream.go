package lsp

import (
	"context"
	"errors"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// tolerantStream answers a frame that is not a JSON-RPC message (invalid
// JSON, or JSON that is no request or response) with an error response
// whose id is null, as JSON-RPC 2.0 asks, and reads on. The connection
// otherwise treats such a frame as a read error and closes: one stray byte
// from a client would end the session. Framing errors (a bad header) still
// end it: after one, message boundaries are lost.
type tolerantStream struct {
	inner jsonrpc2.Stream
	log   *zap.Logger
	mu    sync.Mutex // one frame at a time, ours or the connection's
}

// frameReader is the raw-frame fast path the connection uses when the
// stream offers it.
type frameReader interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
}

func newTolerantStream(s jsonrpc2.Stream, log *zap.Logger) jsonrpc2.Stream {
	if _, ok := s.(frameReader); !ok {
		return s
	}
	return &tolerantStream{inner: s, log: log}
}

// ReadFrame returns the next frame that decodes as a message; batches
// (arrays) pass through, the connection answers those itself.
func (s *tolerantStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		frame, n, err := s.inner.(frameReader).ReadFrame(ctx)
		if err != nil {
			return frame, n, err
		}
		if i := firstNonSpace(frame); i < len(frame) && frame[i] == '[' {
			return frame, n, nil
		}
		_, err = jsonrpc2.DecodeMessage(frame)
		if err == nil {
			return frame, n, nil
		}
		code, msg := jsonrpc2.InvalidRequest, "invalid JSON-RPC message"
		if errors.Is(err, jsonrpc2.ErrParse) {
			code, msg = jsonrpc2.ParseError, "invalid JSON"
		}
		s.log.Warn("unreadable message", zap.Int("bytes", len(frame)), zap.Error(err))
		if _, werr := s.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(code, msg))); werr != nil {
			return nil, 0, werr
		}
	}
}

func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	frame, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(frame)
	return msg, n, err
}

func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inner.Write(ctx, msg)
}

func (s *tolerantStream) Close() error { return s.inner.Close() }

func firstNonSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
