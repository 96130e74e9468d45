// Finding the charter-lsp binary. Kept free of the vscode API so it can be unit-tested.
import * as path from 'path';

export const INSTALL_URL = 'https://github.com/charter-lsp/charter-lsp#install';

/** Where the binary came from, for the log and the error message. */
export type ServerSource = 'setting' | 'bundled' | 'path';

export interface ServerLocation {
  command: string;
  source: ServerSource;
}

export interface LookupEnv {
  /** The charter.server.path setting, as the user wrote it. */
  configured: string | undefined;
  extensionPath: string;
  /** process.platform / process.arch. */
  platform: string;
  arch: string;
  /** The PATH variable. */
  pathEnv: string | undefined;
  home: string;
  /** The first workspace folder, for ${workspaceFolder} and relative settings. */
  workspaceFolder: string | undefined;
  isExecutable(file: string): boolean;
}

/** The Go names (GOOS-GOARCH) of the folder a bundled binary lives in. */
export function platformDir(platform: string, arch: string): string | undefined {
  const os: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'windows', freebsd: 'freebsd' };
  const cpu: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };
  if (!os[platform] || !cpu[arch]) {
    return undefined;
  }
  return `${os[platform]}-${cpu[arch]}`;
}

function exeName(platform: string): string {
  return platform === 'win32' ? 'charter-lsp.exe' : 'charter-lsp';
}

/** Expands ~ and ${workspaceFolder}; resolves a relative path against the workspace folder. */
export function expandSetting(value: string, home: string, workspaceFolder: string | undefined): string {
  let v = value.trim();
  if (v === '~' || v.startsWith('~/')) {
    v = path.join(home, v.slice(1));
  }
  if (workspaceFolder) {
    v = v.split('${workspaceFolder}').join(workspaceFolder);
    if (!path.isAbsolute(v) && (v.includes('/') || v.includes('\\'))) {
      v = path.join(workspaceFolder, v);
    }
  }
  return v;
}

/**
 * Finds the server: the setting, else the binary bundled for this platform, else
 * charter-lsp on PATH. A setting that names no executable is an error rather than a
 * silent fallback, so a typo in it is noticed.
 */
export function findServer(env: LookupEnv): ServerLocation | { error: string } {
  const exe = exeName(env.platform);
  if (env.configured && env.configured.trim() !== '') {
    const command = expandSetting(env.configured, env.home, env.workspaceFolder);
    if (!command.includes('/') && !command.includes('\\')) {
      // A bare name: look it up on PATH like a shell would.
      const found = searchPath(command, env);
      if (found) {
        return { command: found, source: 'setting' };
      }
    } else if (env.isExecutable(command)) {
      return { command, source: 'setting' };
    }
    return { error: `charter.server.path is set to "${env.configured}", but no executable charter-lsp is there.` };
  }
  const dir = platformDir(env.platform, env.arch);
  if (dir) {
    const bundled = path.join(env.extensionPath, 'bin', dir, exe);
    if (env.isExecutable(bundled)) {
      return { command: bundled, source: 'bundled' };
    }
  }
  const onPath = searchPath(exe, env);
  if (onPath) {
    return { command: onPath, source: 'path' };
  }
  return {
    error: `The charter-lsp language server was not found: this extension has no binary for ${env.platform}-${env.arch}, ` +
      'charter-lsp is not on PATH, and charter.server.path is not set.',
  };
}

function searchPath(name: string, env: LookupEnv): string | undefined {
  const sep = env.platform === 'win32' ? ';' : ':';
  for (const dir of (env.pathEnv ?? '').split(sep)) {
    if (dir === '') {
      continue;
    }
    const candidate = path.join(dir, name);
    if (env.isExecutable(candidate)) {
      return candidate;
    }
  }
  return undefined;
}
