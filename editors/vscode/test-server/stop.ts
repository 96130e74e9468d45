// Ending a test's server: shutdown and exit (a few seconds at most), then the process, then
// the test's workspace copy.
import * as cp from 'child_process';
import * as fs from 'fs';
import type { ProtocolConnection } from 'vscode-languageserver-protocol/node';

export async function stopServer(conn: ProtocolConnection | undefined, server: cp.ChildProcess | undefined, ws: string | undefined): Promise<void> {
  if (conn) {
    await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 3000))]).catch(() => undefined);
    await conn.sendNotification('exit').catch(() => undefined);
    conn.dispose();
  }
  server?.kill();
  if (ws) {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}
