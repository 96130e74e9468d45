package lsptest

import (
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"
)

// prompts is how the test editor answers window/showMessageRequest: by
// default it dismisses every question (as a user closing the
// notification), or answers with Answer's function.
type prompts struct {
	answer func(protocol.ShowMessageRequestParams) *protocol.MessageActionItem
	asked  []protocol.ShowMessageRequestParams
}

// Answer sets how the client answers the server's questions
// (window/showMessageRequest): f gets each question and returns the action
// the user picks, or nil to dismiss it. f runs on the client's read loop:
// it must not wait for the server.
func (c *Client) Answer(f func(protocol.ShowMessageRequestParams) *protocol.MessageActionItem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prompts.answer = f
}

// Pick answers every question with the action titled title (dismissing a
// question that offers none).
func Pick(title string) func(protocol.ShowMessageRequestParams) *protocol.MessageActionItem {
	return func(p protocol.ShowMessageRequestParams) *protocol.MessageActionItem {
		for _, a := range p.Actions {
			if a.Title == title {
				return &protocol.MessageActionItem{Title: title}
			}
		}
		return nil
	}
}

// Asked returns the questions the server asked, in order.
func (c *Client) Asked() []protocol.ShowMessageRequestParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.ShowMessageRequestParams(nil), c.prompts.asked...)
}

func (c *Client) ask(p protocol.ShowMessageRequestParams) *protocol.MessageActionItem {
	var answer func(protocol.ShowMessageRequestParams) *protocol.MessageActionItem
	c.record(func() {
		c.prompts.asked = append(c.prompts.asked, p)
		answer = c.prompts.answer
	})
	if answer == nil {
		return nil
	}
	return answer(p)
}

// Notifications returns the params of the server's own notifications of
// method (charter/…), in order.
func (c *Client) Notifications(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]json.RawMessage(nil), c.custom[method]...)
}

func (c *Client) recordCustom(method string, params json.RawMessage) {
	kept := append(json.RawMessage(nil), params...)
	c.record(func() {
		if c.custom == nil {
			c.custom = map[string][]json.RawMessage{}
		}
		c.custom[method] = append(c.custom[method], kept)
	})
}

// WaitFor waits until cond, checked whenever the client records something
// the server sent, holds; it fails the test after Timeout, saying what.
func (c *Client) WaitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// ProgressCapabilities are the default client capabilities plus
// window/workDoneProgress (server-made progress tokens) and code lens
// refresh, as VS Code announces them.
func ProgressCapabilities() *protocol.ClientCapabilities {
	yes := true
	c := defaultCapabilities()
	c.Window = &protocol.WindowClientCapabilities{WorkDoneProgress: &yes}
	c.Workspace.CodeLens = &protocol.CodeLensWorkspaceClientCapabilities{RefreshSupport: &yes}
	return &c
}
