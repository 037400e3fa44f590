// What compile() reads: the manifest and the parsed files it names. The engine does no I/O;
// the server reads the files from disk, the client from its bundle.
import type { JsonSchema } from './types.ts';

export interface Manifest {
  dictionaries: string[];
  entities: Record<string, string>;
}

export interface SchemaSource {
  manifest: Manifest;
  /** Parsed JSON by path relative to the project root: entity schemas, schemas/common/*, dictionary files. */
  files: Record<string, JsonSchema>;
  /** The files of schemas/meta. */
  meta: JsonSchema[];
}

/** One finding about the schema set: the file, the JSON pointer inside it, and what is wrong. */
export interface SchemaIssue {
  file: string;
  pointer: string;
  message: string;
}

export class SchemaSetError extends Error {
  constructor(readonly issues: SchemaIssue[]) {
    super(`invalid schema set (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'SchemaSetError';
  }
}

export function formatIssue(issue: SchemaIssue): string {
  return `  ${issue.file}#${issue.pointer}: ${issue.message}`;
}

/** JSON pointer segment escaping (RFC 6901). */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
