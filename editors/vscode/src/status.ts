// Rendering the charter.status JSON as markdown. The JSON comes from another process
// and may change shape, so every field is read defensively and every value escaped.

type Json = unknown;

/** One VAL as the status lists it. */
export interface StatusCriterion {
  id: string;
  outcome?: string;
  verifier?: string;
  title?: string;
  charterId?: string;
}

function obj(v: Json): Record<string, Json> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, Json>) : undefined;
}

function arr(v: Json): Json[] {
  return Array.isArray(v) ? v : [];
}

function str(v: Json): string | undefined {
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  return undefined;
}

/** Escapes text for inline markdown, including table cells. */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => '\\' + c)
    .replace(/\r?\n/g, ' ');
}

const md = (v: Json, fallback = '—'): string => {
  const s = str(v);
  return s === undefined || s === '' ? fallback : escapeMarkdown(s);
};

/** The charters in a status response: {charters:[…]}, a bare array, or a single charter. */
export function chartersOf(status: Json): Record<string, Json>[] {
  if (Array.isArray(status)) {
    return status.map(obj).filter((c): c is Record<string, Json> => c !== undefined);
  }
  const o = obj(status);
  if (!o) {
    return [];
  }
  if (Array.isArray(o.charters)) {
    return chartersOf(o.charters);
  }
  return o.charterId !== undefined || o.criteria !== undefined ? [o] : [];
}

/** Every VAL in a status response, in order, with its charter. */
export function criteriaOf(status: Json): StatusCriterion[] {
  const out: StatusCriterion[] = [];
  for (const c of chartersOf(status)) {
    const charterId = str(c.charterId) ?? str(c.id);
    for (const raw of arr(c.criteria)) {
      const v = obj(raw);
      const id = v && (str(v.id) ?? str(v.criterionId));
      if (!v || !id) {
        continue;
      }
      const verifier = str(v.verifier) ?? str(obj(v.verifier)?.kind);
      out.push({ id, outcome: str(v.outcome), verifier, title: str(v.title), charterId });
    }
  }
  return out;
}

const OUTCOME_ICON: Record<string, string> = { pass: '✅', fail: '❌', partial: '🟡' };

function describe(v: Json): string {
  const s = str(v);
  if (s !== undefined) {
    return escapeMarkdown(s);
  }
  const o = obj(v);
  if (!o) {
    return escapeMarkdown(JSON.stringify(v) ?? '');
  }
  // Prefer a human message; fall back to the kind and the VAL it names.
  const text = str(o.message) ?? str(o.hint) ?? str(o.detail) ?? str(o.reason);
  const kind = str(o.kind) ?? str(o.type) ?? str(o.code);
  const who = str(o.criterionId) ?? str(o.id) ?? str(o.milestoneId);
  const parts = [kind && `**${escapeMarkdown(kind)}**`, who && `\`${who.replace(/`/g, '')}\``, text && escapeMarkdown(text)];
  const line = parts.filter(Boolean).join(' ');
  return line !== '' ? line : escapeMarkdown(JSON.stringify(o));
}

/** The whole status as a markdown document. */
export function renderStatusMarkdown(status: Json): string {
  const charters = chartersOf(status);
  const lines: string[] = ['# Charter status', ''];
  if (charters.length === 0) {
    lines.push('No pi-charter charters were found in this workspace.', '');
    return lines.join('\n');
  }
  for (const c of charters) {
    const id = str(c.charterId) ?? str(c.id) ?? '(unnamed charter)';
    const state = str(c.status);
    lines.push(`## ${escapeMarkdown(id)}${state ? ` — ${escapeMarkdown(state)}` : ''}`, '');
    const objective = str(c.objective);
    if (objective) {
      lines.push(escapeMarkdown(objective), '');
    }

    const milestones = arr(c.milestones).map(obj).filter((m): m is Record<string, Json> => m !== undefined);
    if (milestones.length > 0) {
      lines.push('### Milestones', '', '| Milestone | Pass |', '| --- | --- |');
      for (const m of milestones) {
        const title = str(m.title) ?? str(m.milestoneId) ?? '?';
        const count = str(m.valCount) ?? String(arr(m.criterionIds).length);
        lines.push(`| ${escapeMarkdown(title)} | ${md(m.valPassCount, '0')}/${escapeMarkdown(count)} |`);
      }
      lines.push('');
    }

    const criteria = arr(c.criteria).map(obj).filter((v): v is Record<string, Json> => v !== undefined);
    if (criteria.length > 0) {
      lines.push('### Criteria', '', '| VAL | Outcome | Last evidence | Summary |', '| --- | --- | --- | --- |');
      for (const v of criteria) {
        const outcome = str(v.outcome) ?? str(v.lastOutcome);
        const icon = outcome ? OUTCOME_ICON[outcome] ?? '' : '⬜';
        const stale = v.stale === true || obj(v.stale) !== undefined ? ' (stale)' : '';
        lines.push(`| ${md(v.id ?? v.criterionId)} | ${icon} ${md(outcome, 'no evidence')}${stale} | ${md(v.lastTs ?? v.ts)} | ${md(v.lastSummary ?? v.summary)} |`);
      }
      lines.push('');
    }

    const blockers = arr(c.blockers);
    lines.push('### Completion blockers', '');
    lines.push(...(blockers.length > 0 ? blockers.map((b) => `- ${describe(b)}`) : ['None.']), '');

    const drift = obj(c.drift);
    if (drift) {
      const items: string[] = [];
      for (const [k, v] of Object.entries(drift)) {
        const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
        for (const d of list) {
          items.push(`- **${escapeMarkdown(k)}**: ${describe(d)}`);
        }
      }
      if (items.length > 0) {
        lines.push('### Drift', '', ...items, '');
      }
    }

    const actions = arr(c.nextActions);
    if (actions.length > 0) {
      lines.push('### Next actions', '');
      for (const a of actions) {
        const o = obj(a);
        if (!o) {
          lines.push(`- ${describe(a)}`);
          continue;
        }
        const tool = [str(o.tool), str(o.action)].filter(Boolean).join(' ');
        lines.push(`- ${tool ? `\`${tool.replace(/`/g, '')}\` ` : ''}${md(o.hint, '')}`.trimEnd());
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}
