// Which documents the client hands to the server: the charter files by path, from the
// server's own list (analysis.FileGlobs, generated into ./generated/charterFiles.ts and
// tested against the server's classifier). The server decides the rest by content.
import { CHARTER_FILE_GLOBS } from './generated/charterFiles';

/** A document filter of the client's document selector (files only, any language). */
export interface CharterFileFilter {
  scheme: 'file';
  pattern: string;
}

/** The document selector: every charter file, whatever language VS Code gave it. */
export const CHARTER_DOCUMENTS: CharterFileFilter[] = CHARTER_FILE_GLOBS.map((pattern) => ({ scheme: 'file', pattern }));
