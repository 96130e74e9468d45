package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/charter-lsp/charter-lsp/analysis/feature"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	configuration      bool // workspace/configuration
	watchDynamic       bool // dynamic registration of didChangeWatchedFiles
	relativePatterns   bool
	configDynamic      bool // dynamic registration of didChangeConfiguration
	applyEdit          bool
	showDocument       bool
	diagnosticsVersion bool
	// pullDiagnostics: the client asks for diagnostics (textDocument/diagnostic);
	// it must then not be pushed the same diagnostics, or shows them twice.
	pullDiagnostics   bool
	diagnosticRefresh bool                        // workspace/diagnostic/refresh
	all               protocol.ClientCapabilities // for features added later
}

func readClientCaps(c protocol.ClientCapabilities) clientCaps {
	out := clientCaps{all: c}
	if w := c.Workspace; w != nil {
		out.configuration = isTrue(w.Configuration)
		out.applyEdit = isTrue(w.ApplyEdit)
		if w.DidChangeWatchedFiles != nil {
			out.watchDynamic = isTrue(w.DidChangeWatchedFiles.DynamicRegistration)
			out.relativePatterns = isTrue(w.DidChangeWatchedFiles.RelativePatternSupport)
		}
		if w.DidChangeConfiguration != nil {
			out.configDynamic = isTrue(w.DidChangeConfiguration.DynamicRegistration)
		}
	}
	if win := c.Window; win != nil && win.ShowDocument != nil {
		out.showDocument = win.ShowDocument.Support
	}
	if td := c.TextDocument; td != nil && td.PublishDiagnostics != nil {
		out.diagnosticsVersion = isTrue(td.PublishDiagnostics.VersionSupport)
	}
	if td := c.TextDocument; td != nil && td.Diagnostic != nil {
		out.pullDiagnostics = true
	}
	if w := c.Workspace; w != nil && w.Diagnostics != nil {
		out.diagnosticRefresh = isTrue(w.Diagnostics.RefreshSupport)
	}
	return out
}

func isTrue(b *bool) bool { return b != nil && *b }

// Initialize records the client's capabilities, workspace folders and
// initializationOptions, and announces what the server does.
func (s *Server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	caps, err := protocol.Clone(params.Capabilities)
	if err != nil {
		caps = params.Capabilities
	}
	roots := workspaceRoots(params)
	initCfg := s.decodeSettings(ctx, "initializationOptions", params.InitializationOptions)
	restricted, _ := restrictedOption(params.InitializationOptions)
	s.setInitAgent(ctx, params.InitializationOptions)

	s.mu.Lock()
	s.state = stateInitialized
	s.caps = readClientCaps(caps)
	s.config.init = initCfg
	s.config.restricted = restricted
	s.mu.Unlock()

	s.log.Info("initialize", zap.String("client", params.ClientInfo.Name), zap.Strings("roots", roots), zap.Bool("restricted", restricted))
	st := s.settings()
	s.update(workspace.Change{Roots: &roots, Settings: &st})

	return &protocol.InitializeResult{
		Capabilities: serverCapabilities(),
		ServerInfo:   protocol.ServerInfo{Name: "charter-lsp", Version: protocol.NewOptional(s.version)},
	}, nil
}

func serverCapabilities() protocol.ServerCapabilities {
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	return protocol.ServerCapabilities{
		PositionEncoding: protocol.PositionEncodingKindUTF16,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &incremental,
			Save:      protocol.Boolean(true),
		},
		DiagnosticProvider: &protocol.DiagnosticOptions{
			// Editing criteria.md changes the diagnostics of the evidence
			// files of the same charter, and the other way round.
			InterFileDependencies: true,
		},
		// Part A features: hover, outline, folding, interview actions.
		HoverProvider:          protocol.Boolean(true),
		DocumentSymbolProvider: protocol.Boolean(true),
		FoldingRangeProvider:   protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, protocol.CodeActionKindRefactorRewrite, protocol.CodeActionKind(feature.KindRecordEvidence), protocol.CodeActionKind(feature.KindVerify)},
		},
		CodeLensProvider:       &protocol.CodeLensOptions{},
		ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: commandNames()},
		// Part B features: completion, definition, workspace symbols.
		CompletionProvider:      &protocol.CompletionOptions{TriggerCharacters: []string{":", " ", "-"}},
		DefinitionProvider:      protocol.Boolean(true),
		WorkspaceSymbolProvider: protocol.Boolean(true),
		// Ids: references, rename, links, inlay hints (references.go, rename.go, document_link.go, inlay_hint.go).
		ReferencesProvider: protocol.Boolean(true), RenameProvider: &protocol.RenameOptions{PrepareProvider: &yes},
		DocumentLinkProvider: &protocol.DocumentLinkOptions{}, InlayHintProvider: protocol.Boolean(true),
		Workspace: &protocol.WorkspaceOptions{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported:           &yes,
				ChangeNotifications: protocol.Boolean(true),
			},
		},
	}
}
