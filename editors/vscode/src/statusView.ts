// The status view: the server's rendered status in a webview page. The markdown comes from
// the server (charter.status with render "markdown"); the view only turns it into HTML with
// the given renderer (VS Code's own markdown engine in the editor) and frames it. No vscode
// import here, so a test feeds the real server's answer through the same code.

/** The whole webview page around rendered markdown. Scripts stay off. */
export function statusPage(bodyHtml: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--vscode-panel-border); padding: 2px 8px; text-align: left; }
code { font-family: var(--vscode-editor-font-family); white-space: nowrap; }
</style></head><body class="charter-status">${bodyHtml}</body></html>`;
}

/** Markdown shown as text, for when no markdown renderer is available. */
export function preformatted(markdown: string): string {
  return `<pre>${escapeHtml(markdown)}</pre>`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
