// This machine and the main database's server, as a tenant's target may name them: by name, by a
// literal in any form, or by what a name resolves to (a resolver stands in for DNS here).
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.ts';
import { isThisMachineAddress, isThisMachineName, PlatformAddresses, ReservedTarget } from './outgoing.ts';

const embedded = { kind: 'pglite', query: async () => [] } as unknown as Db;

const DNS: Record<string, string[]> = {
  'db.internal': ['10.0.0.5'],
  'pg-alias.corp': ['10.0.0.5'],
  'loops.example': ['192.0.2.7', '127.0.0.1'],
  'reports.corp': ['10.0.0.9'],
};
const resolver = async (host: string) => {
  if (!DNS[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return DNS[host];
};

describe('this machine', () => {
  it('by name and by literal', () => {
    for (const host of [
      'localhost',
      'LOCALHOST.',
      'db.localhost',
      '127.0.0.1',
      '127.9.9.9',
      '[::1]',
      '::1',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
      '/var/run/postgresql',
    ]) {
      expect(isThisMachineName(host), host).toBe(true);
    }
    for (const host of ['10.0.0.5', 'minio.internal.example', '192.0.2.1', '::ffff:10.0.0.1', 'fe80::1'])
      expect(isThisMachineName(host), host).toBe(false);
    expect(isThisMachineAddress('::ffff:7f00:1')).toBe(true);
  });
});

describe("a tenant's target", () => {
  const addresses = new PlatformAddresses(embedded, 'postgres://zs:pw@db.internal:5432/zhusuan', resolver);
  const refused = (host: string, port: number) =>
    addresses.tenantAddress(host, port).then(
      () => 'allowed',
      (err) => (err instanceof ReservedTarget ? 'reserved' : `failed: ${(err as Error).message}`),
    );

  it("is refused on this machine and on the main database's host and port, by name or by address", async () => {
    expect(await refused('localhost', 5432)).toBe('reserved');
    expect(await refused('db.internal', 5432)).toBe('reserved');
    expect(await refused('DB.Internal.', 5432)).toBe('reserved');
    expect(await refused('pg-alias.corp', 5432)).toBe('reserved');
    expect(await refused('10.0.0.5', 5432)).toBe('reserved');
    expect(await refused('::ffff:10.0.0.5', 5432)).toBe('reserved');
    // one of its addresses is this machine
    expect(await refused('loops.example', 5432)).toBe('reserved');
  });

  it('is reached at the address it resolved to when it is neither', async () => {
    expect(await addresses.tenantAddress('db.internal', 5433)).toBe('10.0.0.5');
    expect(await addresses.tenantAddress('reports.corp', 5432)).toBe('10.0.0.9');
    expect(await refused('nowhere.corp', 5432)).toBe('failed: getaddrinfo ENOTFOUND nowhere.corp');
  });

  it("without DATABASE_URL (the embedded database) only this machine is the platform's", async () => {
    const local = new PlatformAddresses(embedded, undefined, resolver);
    expect(await local.reservedByName('127.0.0.1', 5432)).toBe(true);
    expect(await local.tenantAddress('db.internal', 5432)).toBe('10.0.0.5');
  });
});
