// The charters of the workspace as the Testing view and the Charters tree show them, built
// from the server's charter.status answer alone: every fact (outcomes, staleness, progress,
// blockers, next actions, where a criterion is written, the command that verifies it) is the
// server's; this module only arranges it. No vscode import, so it is tested on its own and
// against the real server.
import * as path from 'path';
import type { Charter, Criterion, CharterCriterion, Report, RunAnswer, RunOutput, Status, Verify } from './generated/status';
import { ServerCommand } from './generated/commands';
import { CommandRequest, isRegister } from './server';
import { Outcome, isOutcome } from './generated/vocabulary';

/** The notification that streams a run's output. */
export const VERIFY_OUTPUT = 'charter/verifyOutput';

/** A criterion: a VAL of a pi charter, or a C<n> criterion of a .charters/ charter. */
export interface CriterionNode {
  kind: 'criterion';
  /** Unique in the workspace: the charter folder, '#', the criterion id. */
  key: string;
  criterionId: string;
  title: string;
  /** The charter folder, absolute. */
  dir: string;
  /** The file the criterion is written in, absolute, and its heading's line (0-based). */
  file: string;
  line: number;
  /** pass or fail when the latest record says so; undefined otherwise (see status). */
  outcome?: Outcome;
  /** What the latest record says, for people (e.g. "no evidence"), as the server words it. */
  status: string;
  stale: boolean;
  /** The latest record's summary or note. */
  summary?: string;
  /** The command Run runs; undefined when the criterion has none. */
  verify?: Verify;
}

/** A milestone of a pi charter's register. */
export interface MilestoneNode {
  kind: 'milestone';
  key: string;
  label: string;
  pass: number;
  total: number;
  criteria: CriterionNode[];
}

/** A completion blocker, with where to look when the server names a criterion. */
export interface BlockerNode {
  message: string;
  criterion?: CriterionNode;
}

/** A next action: the hint, and how to take it with charter-lsp. */
export interface ActionNode {
  hint: string;
  cli?: string;
  editor?: string;
}

/** One charter. */
export interface CharterNode {
  kind: 'charter';
  key: string;
  label: string;
  /** The lifecycle (active, paused, completed, abandoned; '' when unknown). */
  lifecycle: string;
  pass: number;
  total: number;
  /** The file to open for the charter: its register (criteria.md) or charter.md. */
  file: string;
  /** Milestones (pi charters with milestones) or criteria. */
  children: (MilestoneNode | CriterionNode)[];
  blockers: BlockerNode[];
  nextActions: ActionNode[];
}

/** Every charter of a charter.status answer. */
export function chartersOf(report: Report | null | undefined, now: Date = new Date()): CharterNode[] {
  return (report?.charters ?? []).map((s) => (isRegister(s) ? piCharter(s, now) : chartersCharter(s as Charter)));
}

/** Every criterion under a charter node, in order. */
export function criteriaOf(c: CharterNode): CriterionNode[] {
  return c.children.flatMap((n) => (n.kind === 'milestone' ? n.criteria : [n]));
}

function piCharter(s: Exclude<Status, Charter>, now: Date): CharterNode {
  const key = s.dir;
  const seen = new Set<string>();
  const byId = new Map<string, CriterionNode>();
  const nodes = s.criteria.map((v) => {
    const n = piCriterion(s.dir, v, now);
    if (!byId.has(v.criterionId)) {
      byId.set(v.criterionId, n);
    }
    return n;
  });
  // A repeated id is listed once (the first, as the server records it).
  const unique = nodes.filter((n) => !seen.has(n.key) && seen.add(n.key));
  let children: (MilestoneNode | CriterionNode)[] = unique;
  if (s.milestones.length > 1 || (s.milestones.length === 1 && s.milestones[0].milestoneId !== '')) {
    children = s.milestones.map((m) => ({
      kind: 'milestone' as const,
      key: `${key}#${m.milestoneId}`,
      label: m.title || m.milestoneId,
      pass: m.valPassCount,
      total: m.valCount,
      criteria: unique.filter((n) => m.criterionIds.includes(n.criterionId) && s.criteria.find((v) => v.criterionId === n.criterionId)?.milestoneId === m.milestoneId),
    }));
  }
  return {
    kind: 'charter',
    key,
    label: s.name || s.charterId,
    lifecycle: s.status,
    pass: s.valPass,
    total: s.valTotal,
    file: unique[0]?.file ?? path.join(s.dir, 'criteria.md'),
    children,
    blockers: s.details.blockingForComplete.map((b) => ({ message: b.message, criterion: b.criterionId ? byId.get(b.criterionId) : undefined })),
    nextActions: s.nextActions.map((a) => ({ hint: a.hint, cli: a.cli, editor: a.editor })),
  };
}

function piCriterion(dir: string, v: Criterion, now: Date): CriterionNode {
  let status = 'no evidence';
  if (v.outcome) {
    status = v.outcome;
    if (v.lastTs) {
      status += ' ' + ago(now, new Date(v.lastTs));
    }
  }
  return {
    kind: 'criterion',
    key: `${dir}#${v.criterionId}`,
    criterionId: v.criterionId,
    title: v.title,
    dir,
    file: path.join(dir, v.file),
    line: Math.max(0, v.line - 1),
    outcome: isOutcome(v.outcome) ? v.outcome : undefined,
    status: v.stale ? `${status} · stale` : status,
    stale: v.stale,
    summary: v.lastSummary,
    verify: v.verify,
  };
}

function chartersCharter(c: Charter): CharterNode {
  const file = path.join(c.dir, 'charter.md');
  const children: CriterionNode[] = (c.criteria ?? []).map((v: CharterCriterion) => ({
    kind: 'criterion',
    key: `${c.dir}#${v.id}`,
    criterionId: v.id,
    title: v.title,
    dir: c.dir,
    file,
    line: Math.max(0, v.line - 1),
    outcome: isOutcome(v.status) ? v.status : undefined, // a .charters status that is an outcome: pass or fail
    status: v.stale ? `${v.status} · stale` : v.status,
    stale: v.stale,
    summary: v.note || undefined,
    verify: v.verify,
  }));
  return {
    kind: 'charter',
    key: c.dir,
    label: c.charterId,
    lifecycle: c.status,
    pass: c.progress?.pass ?? 0,
    total: c.progress?.total ?? 0,
    file,
    children,
    blockers: (c.blockers ?? []).map((message) => ({ message })),
    nextActions: c.nextActions.map((a) => ({ hint: a.hint, cli: a.cli, editor: a.editor })),
  };
}

/** "5m ago", as the server's lenses say it. */
export function ago(now: Date, then: Date): string {
  const s = Math.round((now.getTime() - then.getTime()) / 1000);
  if (Number.isNaN(s)) {
    return '';
  }
  if (s < 60) {
    return 'just now';
  }
  for (const [unit, n] of [['d', 86400], ['h', 3600], ['m', 60]] as const) {
    if (s >= n) {
      return `${Math.floor(s / n)}${unit} ago`;
    }
  }
  return '';
}

/** The charter.verify request for a criterion: the command shown is the one the server checks. */
export function verifyRequest(uri: string, criterionId: string, command: string): CommandRequest {
  return { command: ServerCommand.verify, arguments: [{ uri, criterionId, command }] };
}

/** Is a value charter.verify's answer? (The server answers null or fails otherwise.) */
export function isRunAnswer(v: unknown): v is RunAnswer {
  return typeof v === 'object' && v !== null && typeof (v as RunAnswer).criterionId === 'string' && typeof (v as RunAnswer).declined === 'boolean';
}

/** Is a notification's params a run's output? */
export function isRunOutput(v: unknown): v is RunOutput {
  return typeof v === 'object' && v !== null && typeof (v as RunOutput).run === 'string' && typeof (v as RunOutput).text === 'string';
}

/** How a run ended, in one line for a person. */
export function describeAnswer(a: RunAnswer): string {
  if (a.declined) {
    return `${a.criterionId}: not run`;
  }
  if (a.cancelled || a.timedOut) {
    return `${a.criterionId}: ${a.cancelled ? 'cancelled' : 'timed out'}; nothing recorded`;
  }
  return `${a.criterionId}: ${a.outcome} (exit ${a.exitCode}, ${(a.durationMs / 1000).toFixed(1)}s)${a.recorded ? '; recorded in ' + a.recorded : ''}`;
}
