// Which files are charter files, for the client's document selector and lazy start.
// The server decides by path and content too; this only keeps the client off other markdown.

/** Glob patterns of charter files (VS Code glob syntax). */
export const CHARTER_MARKDOWN = [
  '**/{charter,Charter,CHARTER}.md',
  '**/.pi/charters/**/criteria.md',
  '**/.pi/charters/**/REPORT.md',
];
export const CHARTER_JSON = ['**/.pi/charters/**/*.json'];

/** True when a file path (with / separators) looks like a charter file. */
export function isCharterPath(p: string): boolean {
  const f = p.replace(/\\/g, '/');
  const base = f.slice(f.lastIndexOf('/') + 1);
  if (base.toLowerCase() === 'charter.md') {
    return true;
  }
  if (!/\/\.pi\/charters\//.test(f)) {
    return false;
  }
  return base === 'criteria.md' || base === 'REPORT.md' || base.endsWith('.json');
}
