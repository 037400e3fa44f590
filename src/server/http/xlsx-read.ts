// Reading an uploaded .xlsx. A workbook is a zip archive, and exceljs unpacks every part of it into
// memory before a single row can be counted: a few megabytes of well-compressed XML would become
// gigabytes. So the archive is walked first, as JSZip (exceljs's unzipper) will read it — the end
// record, the central directory, each part's local header and the compressed size the directory
// gives — and every part is inflated with a bound on what it may grow to. Only an archive that
// unpacks within the bound reaches exceljs.
import { inflateRawSync } from 'node:zlib';
import type ExcelJS from 'exceljs';
import { newWorkbook } from './export.ts';

/** What every part of a workbook may unpack to, together. A full sheet of 500 users unpacks to less than 0.3 MB. */
export const UNPACKED_LIMIT = 16 * 1024 * 1024;
const MAX_PARTS = 1000;

const END_RECORD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** A zip64 marker in a 16- or 32-bit field: no workbook of the size we take needs zip64. */
const ZIP64_16 = 0xffff;
const ZIP64_32 = 0xffffffff;

/** The file is no workbook (not a zip, a damaged one, an encrypted one, or exceljs cannot read it). */
export class NotAWorkbook extends Error {}
/** The workbook unpacks to more than the bound. */
export class WorkbookTooLarge extends Error {}

/** The offset of the zip's end record: the last one, as JSZip finds it. */
function endRecord(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= lowest; at--) if (zip.readUInt32LE(at) === END_RECORD) return at;
  throw new NotAWorkbook('no end of central directory');
}

/** Throws unless every part of the archive inflates, and all of them together to at most `limit` bytes. */
export function checkUnpackedSize(zip: Buffer, limit = UNPACKED_LIMIT): void {
  if (zip.length < 22 || zip.readUInt32LE(0) !== LOCAL_HEADER) throw new NotAWorkbook('not a zip archive');
  const end = endRecord(zip);
  const parts = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directory = zip.readUInt32LE(end + 16);
  if (parts === ZIP64_16 || directorySize === ZIP64_32 || directory === ZIP64_32) throw new NotAWorkbook('zip64');
  // nothing between the directory and its end record: JSZip then reads the directory where we do
  if (directory + directorySize !== end || parts > MAX_PARTS) throw new NotAWorkbook('central directory');
  let at = directory;
  let unpacked = 0;
  for (let i = 0; i < parts; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new NotAWorkbook('central header');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const local = zip.readUInt32LE(at + 42);
    if (flags & 1 || packed === ZIP64_32 || size === ZIP64_32 || local === ZIP64_32) throw new NotAWorkbook('encrypted or zip64 part');
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (local + 30 > directory || zip.readUInt32LE(local) !== LOCAL_HEADER) throw new NotAWorkbook('local header');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + packed > directory) throw new NotAWorkbook('part past the directory');
    const room = limit - unpacked;
    if (method === 0) unpacked += packed;
    else if (method === 8) {
      try {
        unpacked += inflateRawSync(zip.subarray(start, start + packed), { maxOutputLength: room + 1 }).length;
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new WorkbookTooLarge();
        throw new NotAWorkbook('damaged part');
      }
    } else throw new NotAWorkbook(`compression method ${method}`);
    if (unpacked > limit) throw new WorkbookTooLarge();
  }
  if (at !== end) throw new NotAWorkbook('central directory');
}

/** The workbook of an uploaded .xlsx, once its archive is known to unpack within `limit`. */
export async function readWorkbook(body: Buffer, limit = UNPACKED_LIMIT): Promise<ExcelJS.Workbook> {
  checkUnpackedSize(body, limit);
  const book = await newWorkbook();
  try {
    // exceljs declares the Buffer of older Node typings
    await book.xlsx.load(body as unknown as Parameters<ExcelJS.Xlsx['load']>[0]);
  } catch {
    throw new NotAWorkbook('exceljs could not read it');
  }
  if (!book.worksheets.length) throw new NotAWorkbook('no worksheet');
  return book;
}
