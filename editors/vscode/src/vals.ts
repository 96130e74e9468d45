// Helpers for choosing the VAL to record evidence for.
import type { StatusCriterion } from './status';

/** The VAL id of a `### VAL-…` (or `## VAL-…`) heading line, if the line is one. */
export function valOfHeading(line: string): string | undefined {
  const m = /^#{2,3}\s+(VAL-[A-Z0-9-]+)/.exec(line);
  return m ? m[1] : undefined;
}

/** The VAL whose section holds the given line: the nearest VAL heading above it, stopping at any other heading. */
export function valAtLine(lines: string[], line: number): string | undefined {
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    const val = valOfHeading(lines[i]);
    if (val) {
      return val;
    }
    if (/^#{1,3}\s/.test(lines[i])) {
      return undefined;
    }
  }
  return undefined;
}

/** Orders VALs for the quick pick: the one under the cursor first, then not-yet-passing, then the rest. */
export function orderForPick(vals: StatusCriterion[], current: string | undefined): StatusCriterion[] {
  const rank = (v: StatusCriterion) => (v.id === current ? 0 : v.outcome === 'pass' ? 2 : 1);
  return vals
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
    .map((x) => x.v);
}

/**
 * Whether to ask for a reason: manual evidence must carry one (upstream's rule); when the
 * status does not say which verifier a VAL has, ask but accept an empty answer.
 */
export function becausePrompt(v: StatusCriterion | undefined): 'required' | 'optional' | 'none' {
  if (v?.verifier === undefined) {
    return 'optional';
  }
  return v.verifier === 'manual' ? 'required' : 'none';
}
