// A zip archive of one deflated part of `size` zero bytes, built by hand: a few kilobytes on the
// wire that unpack to as much as the test asks (a zip bomb). The central directory may state
// another size (`statedSize`): the inflated length is what a reader must go by.
import { deflateRawSync } from 'node:zlib';

export function zipOfZeros(size: number, { part = 'xl/worksheets/sheet1.xml', statedSize = size } = {}): Buffer {
  const data = deflateRawSync(Buffer.alloc(size));
  const name = Buffer.from(part);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(statedSize, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
