package lsp

import (
	"context"
	"encoding/json"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
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

// commandFolder is the charter folder, as at finds it
// (analysis.CharterFolderAt, analysis.PiCharterDirAt), of the document a
// command names; "" when the document lies in none, for the command to
// answer. One rule for every command: a URI that is no file's is an invalid
// argument, and so is a folder outside the workspace folders — refused in a
// message too when the command acts (it would run or write something), so
// the user learns why nothing happened; a query just fails.
func (s *Server) commandFolder(ctx context.Context, command string, u uri.URI, at func(string) string, acts bool) (string, error) {
	p, err := filePath(u)
	if err != nil {
		return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", command, err)
	}
	dir := at(p)
	if dir == "" || s.InWorkspace(dir) {
		return dir, nil
	}
	if acts {
		return "", s.refuse(ctx, "charter-lsp: %s refused: %s is outside the workspace folders", command, dir)
	}
	return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is outside the workspace folders", command, dir)
}
