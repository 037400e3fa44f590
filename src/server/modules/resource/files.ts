// What an uploaded file must be: a plain name (no path, no traversal), an allowed extension, a size
// within the limit, not empty, and, for the formats that have one, content that starts with the
// format's signature (a script renamed to .png is not a picture). Each refusal is an AppError
// naming the problem in the caller's language.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';

export interface UploadLimits {
  maxBytes: number;
  /** Lower-case extensions without the dot. */
  types: readonly string[];
}

/** Avatars are jpg or png, at most 500 kb. */
export const AVATAR_LIMITS: UploadLimits = { maxBytes: 500 * 1024, types: ['jpg', 'jpeg', 'png'] };

export const DEFAULT_TYPES = 'jpg,jpeg,png,gif,pdf,doc,docx,xls,xlsx,ppt,pptx,txt,csv,zip,rar,7z,dwg';
export const DEFAULT_MAX_MB = 10;

const MB = 1024 * 1024;

/** A size as people read it: 500 KB, 10 MB. */
export function sizeText(bytes: number): string {
  return bytes >= MB && bytes % MB === 0
    ? `${bytes / MB} MB`
    : bytes >= MB
      ? `${(bytes / MB).toFixed(1)} MB`
      : `${Math.round(bytes / 1024)} KB`;
}

const UNSAFE_CHARACTERS = /[/\\:*?"<>|\u0000-\u001f\u007f]/;
const ENCODED_PATH = /%(2e|2f|5c|00)/i;

/** The original name, or a refusal: empty, too long, with a path or traversal in it. */
export function checkFileName(raw: string | undefined): string {
  const name = (raw ?? '').normalize('NFC').trim();
  if (!name) throw new AppError(400, 'fileNameMissing');
  if (name.length > 200 || UNSAFE_CHARACTERS.test(name) || ENCODED_PATH.test(name) || name.startsWith('.') || name.includes('..')) {
    throw new AppError(400, 'fileNameRefused', { name: name.slice(0, 80) });
  }
  return name;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

export function checkExtension(name: string, limits: UploadLimits): string {
  const ext = extensionOf(name);
  if (!ext || !limits.types.includes(ext)) throw new AppError(400, 'fileType', { ext: ext || '—', allowed: limits.types.join(', ') });
  return ext;
}

export function checkSize(bytes: number, limits: UploadLimits) {
  if (bytes === 0) throw new AppError(400, 'fileEmpty');
  if (bytes > limits.maxBytes) throw new AppError(400, 'fileTooLarge', { limit: sizeText(limits.maxBytes) });
}

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const SIGNATURES: Record<string, number[][]> = {
  jpg: [[0xff, 0xd8, 0xff]],
  jpeg: [[0xff, 0xd8, 0xff]],
  png: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  gif: [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
  pdf: [[0x25, 0x50, 0x44, 0x46, 0x2d]],
  zip: [ZIP],
  docx: [ZIP],
  xlsx: [ZIP],
  pptx: [ZIP],
  doc: [OLE],
  xls: [OLE],
  ppt: [OLE],
  rar: [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  '7z': [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
};
const TEXT_TYPES = new Set(['txt', 'csv']);

/** Content that contradicts the extension is refused. */
export function checkContent(ext: string, body: Buffer) {
  const signatures = SIGNATURES[ext];
  const matches = signatures
    ? signatures.some((sig) => sig.every((byte, i) => body[i] === byte))
    : !TEXT_TYPES.has(ext) || !body.subarray(0, 8192).includes(0);
  if (!matches) throw new AppError(400, 'fileContent', { ext });
}

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

export function mimeOf(ext: string): string {
  return MIME[ext] ?? 'application/octet-stream';
}

/** Shown in the browser (pictures, PDF); every other type is downloaded. */
export function inline(ext: string): boolean {
  return ['jpg', 'jpeg', 'png', 'gif', 'webp', 'pdf'].includes(ext);
}

/** The object's name as the platform shapes it: upload/<yyyyMMdd>/<uuid>.<ext>. */
export function objectName(today: string, ext: string): string {
  return `upload/${today.replace(/-/g, '')}/${randomUUID().replace(/-/g, '')}.${ext}`;
}

export const OBJECT_NAME = /^upload\/\d{8}\/[0-9a-f]{32}\.[a-z0-9]{1,10}$/;

/**
 * The one file of a multipart request (field `file`), read up to `maxBytes`, its name vetted by
 * `nameOf` (which answers the name kept, or refuses it) before the body is read. Refusals:
 * fileMissing, fileTooLarge, and whatever `nameOf` throws; a refused file is drained.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  maxBytes: number,
  nameOf: (raw: string | undefined) => string,
): Promise<{ filename: string; body: Buffer }> {
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    // one byte past the limit is read, so that a file of exactly the limit passes
    part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1 } });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError(400, 'fileMissing');
    throw err;
  }
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw new AppError(400, 'fileMissing');
  }
  try {
    const filename = nameOf(part.filename);
    return { filename, body: await part.toBuffer() };
  } catch (err) {
    part.file.resume();
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(400, 'fileTooLarge', { limit: sizeText(maxBytes) });
    throw err;
  }
}
