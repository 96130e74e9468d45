// The settings the server reads (section "charter"), built from the VS Code settings.

/** The server's configuration keys (analysis.Config on the Go side). */
export interface ServerSettings {
  severity: Record<string, unknown>;
  sourceDirs?: unknown;
  freshness?: unknown;
  questionBudget?: unknown;
  debounceMs?: unknown;
  /** The workspace is not trusted (Restricted Mode): the server then lets the project file set nothing that widens what it does. */
  restricted: boolean;
}

/**
 * Turns the raw "charter" settings into what the server reads: client-only keys (server.path,
 * trace) dropped and charter.disabledCodes folded into severity as "off". Values are passed
 * as the user wrote them: the server checks them (its ranges are the settings schema's) and
 * says which one it clamped or ignored, keeping the rest.
 * `restricted` says whether the workspace is untrusted (vscode.workspace.isTrusted false).
 */
export function serverSettings(raw: Record<string, unknown> | undefined, trusted = true): ServerSettings {
  const r = raw ?? {};
  const severity: Record<string, unknown> = isObject(r.severity) ? { ...r.severity } : {};
  if (Array.isArray(r.disabledCodes)) {
    for (const code of r.disabledCodes) {
      if (typeof code === 'string' && code.trim() !== '') {
        severity[code.trim()] = 'off';
      }
    }
  }
  const out: ServerSettings = { severity, restricted: !trusted };
  for (const key of ['sourceDirs', 'freshness', 'questionBudget', 'debounceMs'] as const) {
    if (r[key] !== undefined && r[key] !== null) {
      out[key] = r[key];
    }
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What VS Code's configuration.inspect() says of a setting, as far as used here. */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The interview agent's settings, by the server's keys. */
export interface AgentSettings {
  interviewAgent?: unknown;
  interviewAgentTimeout?: unknown;
}

/**
 * The interview agent from the user's own settings only (inspect()'s globalValue: the user
 * settings, or the remote machine's in a remote window), sent as initializationOptions:
 * the server runs it, so a workspace never names it. An empty command is left out.
 */
export function agentOptions(agent: Inspected | undefined, timeout: Inspected | undefined): AgentSettings {
  const out: AgentSettings = {};
  if (typeof agent?.globalValue === 'string' && agent.globalValue.trim() !== '') {
    out.interviewAgent = agent.globalValue;
  }
  if (timeout?.globalValue !== undefined && timeout.globalValue !== null) {
    out.interviewAgentTimeout = timeout.globalValue;
  }
  return out;
}

/**
 * The agent settings a workspace set (VS Code does not apply them: they are user settings),
 * sent with the workspace's settings so the server says they are ignored, and why.
 */
export function workspaceAgentValues(agent: Inspected | undefined, timeout: Inspected | undefined): AgentSettings {
  const out: AgentSettings = {};
  const of = (i: Inspected | undefined) => i?.workspaceFolderValue ?? i?.workspaceValue;
  if (of(agent) !== undefined) {
    out.interviewAgent = of(agent);
  }
  if (of(timeout) !== undefined) {
    out.interviewAgentTimeout = of(timeout);
  }
  return out;
}
