// The archive walk that guards exceljs: a workbook passes, and what is no workbook, or one that
// unpacks past the bound, is refused before exceljs unpacks anything.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { zipOfZeros } from '../../../tests/support/zip.ts';
import { checkUnpackedSize, NotAWorkbook, readWorkbook, WorkbookTooLarge } from './xlsx-read.ts';

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('用户').addRow(['登录账号', '用户姓名']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A zip of one part of `size` zero bytes whose directory under-states the size. */
const oneDeflatedPart = (size: number) => zipOfZeros(size, { part: 'xl/sharedStrings.xml', statedSize: 1 });

describe('reading an uploaded workbook', () => {
  it('reads a workbook exceljs wrote', async () => {
    const book = await readWorkbook(await workbook());
    expect(book.worksheets[0].getRow(1).getCell(1).value).toBe('登录账号');
  });

  it('refuses what is no zip, a cut one and one with bytes before it', async () => {
    const good = await workbook();
    for (const bad of [
      Buffer.from('account,name\n'),
      Buffer.alloc(0),
      good.subarray(0, good.length - 30),
      Buffer.concat([Buffer.from('x'), good]),
    ])
      expect(() => checkUnpackedSize(bad)).toThrow(NotAWorkbook);
    // a zip exceljs cannot make a workbook of
    await expect(readWorkbook(oneDeflatedPart(10))).rejects.toThrow(NotAWorkbook);
  });

  it('refuses a part that inflates past the bound, whatever the directory says it holds', () => {
    expect(() => checkUnpackedSize(oneDeflatedPart(2048), 1024)).toThrow(WorkbookTooLarge);
    expect(() => checkUnpackedSize(oneDeflatedPart(1024), 1024)).not.toThrow();
  });
});
