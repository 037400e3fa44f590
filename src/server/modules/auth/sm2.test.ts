import { sm2 } from 'sm-crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.ts';
import { decryptPassword, loadSm2KeyPair, type Sm2KeyPair } from './sm2.ts';

const generated = sm2.generateKeyPairHex();
const pair: Sm2KeyPair = { publicKey: generated.publicKey, privateKey: generated.privateKey };

describe('SM2 passwords', () => {
  it('decrypts what the Saber client sends (C1C2C3, no 04 prefix), and the same with the prefix', () => {
    const sent = sm2.doEncrypt('密码 pass', pair.publicKey, 0);
    expect(decryptPassword(sent, pair)).toBe('密码 pass');
    expect(decryptPassword(`04${sent}`, pair)).toBe('密码 pass');
    expect(decryptPassword(sent.toUpperCase(), pair)).toBe('密码 pass');
  });

  it('gives nothing for another key, the other cipher mode, text that is not hex, and an overlong input', () => {
    const other = sm2.generateKeyPairHex();
    expect(decryptPassword(sm2.doEncrypt('admin', other.publicKey, 0), pair)).toBeUndefined();
    expect(decryptPassword(sm2.doEncrypt('admin', pair.publicKey, 1), pair)).toBeUndefined();
    expect(decryptPassword('not hex', pair)).toBeUndefined();
    expect(decryptPassword('', pair)).toBeUndefined();
    expect(decryptPassword('ab'.repeat(100_000), pair)).toBeUndefined();
  });

  it('takes the pair from ZS_SM2_PRIVATE_KEY when set, and refuses one that is not a key', async () => {
    const unused = {} as Db;
    await expect(loadSm2KeyPair(unused, pair.privateKey)).resolves.toEqual(pair);
    await expect(loadSm2KeyPair(unused, 'secret')).rejects.toThrow('ZS_SM2_PRIVATE_KEY must be 64 hexadecimal digits');
  });
});
