// What the extension asks the server (workspace/executeCommand), typed by the shapes the
// server sends (./generated/status.ts, generated from the server's docs/status.schema.json).
// The server owns every charter rule: which VAL the cursor is in, what blocks completion,
// how the status reads; the extension only asks and shows. No vscode import here, so the
// tests drive these functions against the real server.
import { ServerCommand } from './generated/commands';
import type { Charter, Report, Status, VALAt } from './generated/status';
import { Outcome } from './generated/vocabulary';

/** The server's workspace/executeCommand ids (generated from the server's feature.Commands). */
export { ServerCommand };

/** The params of a workspace/executeCommand request. */
export interface CommandRequest {
  command: string;
  arguments: unknown[];
}

/** A position in a document, as LSP counts it (0-based line, UTF-16 column). */
export interface Position {
  line: number;
  character: number;
}

/**
 * The status to show: the charter of the given file (a charter file, or any file: the
 * server answers with every charter of the workspace for a file in none), rendered.
 */
export function statusRequest(uri: string | undefined): CommandRequest {
  return { command: ServerCommand.status, arguments: [{ ...(uri ? { uri } : {}), render: 'markdown' }] };
}

/** The status of the charters, for listing their VALs (no rendering). */
export function chartersRequest(uri: string | undefined): CommandRequest {
  return { command: ServerCommand.status, arguments: uri ? [{ uri }] : [] };
}

/** Which VAL the position of an open register is in. */
export function valAtRequest(uri: string, position: Position): CommandRequest {
  return { command: ServerCommand.valAt, arguments: [{ uri, position }] };
}

/** A VAL of a charter (uri: any file of the charter, or its folder) by id. */
export function valByIdRequest(uri: string, criterionId: string): CommandRequest {
  return { command: ServerCommand.valAt, arguments: [{ uri, criterionId }] };
}

/** The markdown of a charter.status answer; says so when the server sent none. */
export function markdownOf(report: Report | null | undefined): string {
  if (report && typeof report.markdown === 'string') {
    return report.markdown;
  }
  return '# Charter status\n\nThe server sent no rendered status; update charter-lsp.\n';
}

/** A VAL the record flow can pick: one entry of a status's criteria, with its charter. */
export interface PickableVAL {
  criterionId: string;
  title: string;
  outcome?: string;
  verifier: string;
  charterId: string;
  /** The charter folder, absolute: where the evidence goes. */
  dir: string;
}

/** A criteria.md charter's status: the shape whose VALs take evidence. */
export type RegisterStatus = Exclude<Status, Charter>;

/**
 * isRegister tells a criteria.md charter's status from a .charters/ charter's (which
 * carries format "charters" and whose criteria are not VALs the record flow writes).
 */
export function isRegister(s: Status): s is RegisterStatus {
  return !('format' in s);
}

/** Every VAL of a charter.status answer, in order, with its charter. .charters/ charters have none. */
export function valsOf(report: Report | null | undefined): PickableVAL[] {
  const out: PickableVAL[] = [];
  for (const c of report?.charters ?? []) {
    if (!isRegister(c)) {
      continue;
    }
    for (const v of c.criteria) {
      out.push({ criterionId: v.criterionId, title: v.title, outcome: v.outcome, verifier: v.verifier, charterId: c.charterId, dir: c.dir });
    }
  }
  return out;
}

/** The same VAL as a pick entry. */
export function pickableOf(v: VALAt): PickableVAL {
  return { criterionId: v.criterionId, title: v.title, outcome: v.outcome, verifier: v.verifier, charterId: v.charterId, dir: v.dir };
}

/**
 * Orders VALs for the quick pick: the one under the cursor first, then those not yet
 * passing, then the rest, each group in register order. A repeated id is listed once.
 */
export function orderForPick(vals: PickableVAL[], current: VALAt | null | undefined): PickableVAL[] {
  const same = (a: PickableVAL, b: { criterionId: string; dir: string }) => a.criterionId === b.criterionId && a.dir === b.dir;
  const seen: PickableVAL[] = [];
  for (const v of vals) {
    if (!seen.some((s) => same(s, v))) {
      seen.push(v);
    }
  }
  const rank = (v: PickableVAL) => (current && same(v, current) ? 0 : v.outcome === Outcome.Pass ? 2 : 1);
  return seen
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
    .map((x) => x.v);
}
