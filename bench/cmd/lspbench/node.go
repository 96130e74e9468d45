package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// keystroke is what bench/peers/keystroke.js measures: an editor's view of
// a keystroke, through vscode-jsonrpc, until the publish for the new
// version is received and decoded.
type keystroke struct {
	OpenMs       float64 `json:"openMs"`
	EditP50Ms    float64 `json:"editP50Ms"`
	EditP90Ms    float64 `json:"editP90Ms"`
	DecodeP50Ms  float64 `json:"decodeP50Ms"`
	DecodeP90Ms  float64 `json:"decodeP90Ms"`
	PublishBytes int     `json:"publishBytes"`
	Diagnostics  int     `json:"diagnostics"`
	Error        string  `json:"error"`
}

// measureKeystroke runs keystroke.js against the server argv in the
// project root; capture, when set, receives the last publish as sent.
func measureKeystroke(peers, root, file string, edits int, capture string, argv ...string) peer[keystroke] {
	if err := ensurePeers(peers); err != nil {
		return peer[keystroke]{err: err}
	}
	args := append([]string{"keystroke.js", root, file, strconv.Itoa(edits)}, argv...)
	cmd := exec.Command("node", args...)
	cmd.Dir = peers
	cmd.Env = os.Environ()
	if capture != "" {
		cmd.Env = append(cmd.Env, "KEYSTROKE_CAPTURE="+capture)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var r keystroke
	if jerr := json.Unmarshal(out, &r); jerr != nil {
		return peer[keystroke]{err: fmt.Errorf("keystroke.js: %v %v %.200s", err, jerr, stderr.String())}
	}
	if r.Error != "" {
		return peer[keystroke]{err: errors.New(r.Error)}
	}
	return peer[keystroke]{res: r}
}

// serveFloor is the floor of the keystroke measurement: a server that does
// no work at all. It answers initialize and shutdown, and to every
// didOpen or didChange sends back the publish captured from charter-lsp
// (the same bytes, with the document's version), so what remains is the
// pipe, the framing and the client's decoding.
func serveFloor(capture string) error {
	msg, err := os.ReadFile(capture)
	if err != nil {
		return err
	}
	key := []byte(`"version":`)
	at := bytes.Index(msg, key)
	if at < 0 {
		return fmt.Errorf("%s: no version in the captured publish", capture)
	}
	head := msg[:at+len(key)]
	end := at + len(key)
	for end < len(msg) && msg[end] >= '0' && msg[end] <= '9' {
		end++
	}
	tail := msg[end:]

	ctx := context.Background()
	stream := jsonrpc2.NewStream(stdio{os.Stdin, os.Stdout})
	framer, ok := stream.(interface {
		WriteFrame(ctx context.Context, data []byte) (int64, error)
	})
	if !ok {
		return errors.New("the stream cannot write a raw frame")
	}
	body := make([]byte, 0, len(msg)+16)
	for {
		m, _, err := stream.Read(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		switch m := m.(type) {
		case *jsonrpc2.Call:
			var result any
			if m.Method() == "initialize" {
				result = map[string]any{"capabilities": map[string]any{"textDocumentSync": 2}}
			}
			raw, _ := json.Marshal(result)
			resp := jsonrpc2.NewResponse(m.ID(), raw, nil)
			if _, err := stream.Write(ctx, resp); err != nil {
				return err
			}
		case *jsonrpc2.Notification:
			switch m.Method() {
			case "exit":
				return nil
			case "textDocument/didOpen", "textDocument/didChange":
				var p struct {
					TextDocument struct {
						Version int32 `json:"version"`
					} `json:"textDocument"`
				}
				if err := json.Unmarshal(m.Params(), &p); err != nil {
					return err
				}
				body = append(append(append(body[:0], head...), strconv.Itoa(int(p.TextDocument.Version))...), tail...)
				if _, err := framer.WriteFrame(ctx, body); err != nil {
					return err
				}
			}
		}
	}
}

type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// self is this program, to run as the floor server.
func self() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.Abs(exe)
}
