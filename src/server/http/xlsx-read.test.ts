// The archive walk that guards exceljs: a workbook passes, and what is no workbook, or one that
// unpacks past the bound, is refused before exceljs unpacks anything.
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { checkUnpackedSize, NotAWorkbook, readWorkbook, WorkbookTooLarge } from './xlsx-read.ts';

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('用户').addRow(['登录账号', '用户姓名']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A zip of one deflated part of `size` zero bytes. */
function oneDeflatedPart(size: number): Buffer {
  const data = deflateRawSync(Buffer.alloc(size));
  const name = Buffer.from('xl/sharedStrings.xml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  // the directory may under-state the size: the inflated length is what counts
  central.writeUInt32LE(1, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

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
