// The settings the server reads (section "charter"), built from the VS Code settings.

/** The server's configuration shape (analysis.Config on the Go side). */
export interface ServerSettings {
  severity: Record<string, string>;
  sourceDirs?: string[];
  freshness?: string;
  questionBudget?: number;
  debounceMs?: number;
  /** The workspace is not trusted (Restricted Mode): the server then lets the project file set nothing that widens what it does. */
  restricted: boolean;
}

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint', 'off']);

/**
 * Turns the raw "charter" settings into what the server expects: client-only keys
 * (server.path, trace) dropped, charter.disabledCodes folded into severity as "off",
 * values of the wrong type left out so the server's defaults apply, and whether the
 * workspace is trusted (vscode.workspace.isTrusted) as `restricted`.
 */
export function serverSettings(raw: Record<string, unknown> | undefined, trusted = true): ServerSettings {
  const r = raw ?? {};
  const severity: Record<string, string> = {};
  if (isObject(r.severity)) {
    for (const [code, level] of Object.entries(r.severity)) {
      if (typeof level === 'string' && SEVERITIES.has(level.toLowerCase())) {
        severity[code] = level.toLowerCase();
      }
    }
  }
  if (Array.isArray(r.disabledCodes)) {
    for (const code of r.disabledCodes) {
      if (typeof code === 'string' && code.trim() !== '') {
        severity[code.trim()] = 'off';
      }
    }
  }
  const out: ServerSettings = { severity, restricted: !trusted };
  if (Array.isArray(r.sourceDirs) && r.sourceDirs.every((d) => typeof d === 'string')) {
    out.sourceDirs = r.sourceDirs as string[];
  }
  if (r.freshness === 'mtime' || r.freshness === 'git') {
    out.freshness = r.freshness;
  }
  if (typeof r.questionBudget === 'number' && Number.isInteger(r.questionBudget) && r.questionBudget > 0) {
    out.questionBudget = r.questionBudget;
  }
  if (typeof r.debounceMs === 'number' && Number.isFinite(r.debounceMs) && r.debounceMs >= 0) {
    out.debounceMs = Math.round(r.debounceMs);
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
