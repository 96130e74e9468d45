package lsp

import (
	"context"
	"encoding/json"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// commandFunc runs one workspace/executeCommand command; its result is
// marshalled as the request's result.
type commandFunc func(s *Server, ctx context.Context, args []protocol.LSPAny) (any, error)

// commands are the commands the server runs, by name. Each lives in its own
// file (command_interview.go, …); serverCapabilities advertises them all.
var commands = map[string]commandFunc{
	cmdInterviewNext:   (*Server).interviewNext,
	cmdInterviewSkip:   (*Server).interviewSkip,
	cmdInterviewFinish: (*Server).interviewFinish,
	cmdInterviewStart:  (*Server).interviewStart,
	cmdInterviewRegion: (*Server).interviewRegion,
	cmdInterviewTurn:   (*Server).interviewTurn,

	commandStatus:         (*Server).statusCommand,
	commandRecordEvidence: (*Server).recordEvidenceCommand,
	commandVALAt:          (*Server).valAtCommand,
	commandVerify:         (*Server).verifyCommand,
}

// commandNames lists the commands in a stable order.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ExecuteCommand runs a command and returns its JSON result.
func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	run := commands[params.Command]
	if run == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", params.Command)
	}
	res, err := run(s, ctx, params.Arguments)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: encoding the result: %v", params.Command, err)
	}
	return protocol.LSPAny(raw), nil
}

// commandArg decodes a command's single object argument into v.
func commandArg(name string, args []protocol.LSPAny, v any) error {
	if len(args) != 1 {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument, an object like {\"uri\": \"file:///…/charter.md\"}; got %d", name, len(args))
	}
	if err := json.Unmarshal(args[0], v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: bad argument: %v", name, err)
	}
	return nil
}

// commandArgs returns the protocol form of a command's single argument.
func commandArgs(v any) []protocol.LSPAny {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return []protocol.LSPAny{raw}
}
