// The one language client: found, started lazily, restarted on demand, told of settings.
import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { CHARTER_DOCUMENTS } from './selector';
import { findServer, INSTALL_URL } from './serverPath';
import { agentOptions, Inspected, serverSettings, workspaceAgentValues } from './settings';

/** Owns the one language client; starts it lazily and restarts it on demand. */
export class ClientHost {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  readonly output = vscode.window.createOutputChannel('Charter');
  private readonly started = new vscode.EventEmitter<LanguageClient>();
  /** A client started (and after a restart, the new one). */
  readonly onDidStart = this.started.event;

  constructor(private readonly ctx: vscode.ExtensionContext) {}

  /** The running client, starting it if needed; undefined when no server could be found. */
  async get(): Promise<LanguageClient | undefined> {
    if (this.client?.isRunning()) {
      return this.client;
    }
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async restart(): Promise<void> {
    await this.stop();
    const c = await this.get();
    if (c) {
      vscode.window.setStatusBarMessage('Charter: language server restarted', 3000);
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) {
      await c.dispose().catch((e) => this.output.appendLine(`stopping the server: ${e}`));
    }
  }

  private async start(): Promise<LanguageClient | undefined> {
    const config = vscode.workspace.getConfiguration('charter');
    const found = findServer({
      configured: config.get<string>('server.path'),
      extensionPath: this.ctx.extensionPath,
      platform: process.platform,
      arch: process.arch,
      pathEnv: process.env.PATH,
      home: os.homedir(),
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      isExecutable,
    });
    if ('error' in found) {
      this.output.appendLine(found.error);
      void vscode.window.showErrorMessage(found.error, 'How to install', 'Open Settings').then((pick) => {
        if (pick === 'How to install') {
          void vscode.env.openExternal(vscode.Uri.parse(INSTALL_URL));
        } else if (pick === 'Open Settings') {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'charter.server.path');
        }
      });
      return undefined;
    }
    this.output.appendLine(`Starting ${found.command} (${found.source})`);

    const serverOptions: ServerOptions = {
      command: found.command,
      args: ['serve'],
      transport: TransportKind.stdio,
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: CHARTER_DOCUMENTS,
      outputChannel: this.output,
      // In Restricted Mode the server is told so, here and in every answer below: the
      // project's .charter-lsp.jsonc then sets nothing that widens what it does.
      // The interview agent only from the user's own settings (agentOptions).
      initializationOptions: { ...serverSettings(rawSettings(), vscode.workspace.isTrusted), ...agentOptions(...agentInspect()) },
      synchronize: { configurationSection: 'charter' },
      middleware: {
        workspace: {
          // Answer workspace/configuration with the settings the server understands.
          configuration: async (params, token, next) => {
            const base = await next(params, token);
            const values = Array.isArray(base) ? base : [];
            return params.items.map((item, i) =>
              item.section === undefined || item.section === 'charter'
                ? { ...serverSettings(rawSettings(item.scopeUri), vscode.workspace.isTrusted), ...workspaceAgentValues(...agentInspect(item.scopeUri)) }
                : values[i] ?? null,
            );
          },
        },
      },
    };
    const client = new LanguageClient('charter', 'Charter', serverOptions, clientOptions);
    try {
      await client.start();
    } catch (e) {
      const msg = `Charter: the language server (${found.command}) failed to start: ${e instanceof Error ? e.message : e}`;
      this.output.appendLine(msg);
      void vscode.window.showErrorMessage(msg, 'Show Log').then((p) => p && this.output.show());
      await client.dispose().catch(() => undefined);
      return undefined;
    }
    this.client = client;
    this.started.fire(client);
    return client;
  }

  /** Tells a running server that the settings changed; it asks for them again. */
  async settingsChanged(): Promise<void> {
    const c = this.client;
    if (c?.isRunning()) {
      await c.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }
  }
}

function rawSettings(scopeUri?: string): Record<string, unknown> {
  const scope = scopeUri ? vscode.Uri.parse(scopeUri) : undefined;
  const c = vscode.workspace.getConfiguration('charter', scope);
  return {
    severity: c.get('severity'),
    disabledCodes: c.get('disabledCodes'),
    sourceDirs: c.get('sourceDirs'),
    freshness: c.get('freshness'),
    questionBudget: c.get('questionBudget'),
    debounceMs: c.get('debounceMs'),
  };
}

/** What VS Code says of the interview agent's two settings, layer by layer. */
function agentInspect(scopeUri?: string): [Inspected | undefined, Inspected | undefined] {
  const c = vscode.workspace.getConfiguration('charter', scopeUri ? vscode.Uri.parse(scopeUri) : undefined);
  return [c.inspect('interviewAgent'), c.inspect('interviewAgentTimeout')];
}

function isExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
