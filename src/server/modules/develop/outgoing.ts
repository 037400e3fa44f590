// Where the server may connect on a tenant's behalf (data sources, object storage). Besides the
// operator's allow-lists (ZS_DATASOURCE_HOSTS, ZS_OSS_HOSTS, compared by name), two kinds of target
// are the platform's alone, whatever the allow-list says:
//  - this machine: loopback and unspecified addresses, names such as localhost, a Unix socket path,
//    and any name that resolves to one of them;
//  - the main database's server: the host and port of DATABASE_URL, and the address and port the
//    PostgreSQL server itself reports (inet_server_addr), by name or by resolved address.
// A tenant's target is resolved once, checked, and connected to by that address (no second lookup).
// A failed connection is answered with one message whatever the cause, no sooner than FAILURE_FLOOR_MS
// after it began, so that neither the words nor the time tell an open port from a closed one.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Db } from '../../db/db.ts';

export interface Endpoint {
  host: string;
  port: number;
}

/** Resolves a host name to its addresses (a seam for tests). */
export type Resolver = (host: string) => Promise<string[]>;

const resolveAll: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A failed connection is answered no sooner than this after it began. */
export const FAILURE_FLOOR_MS = 1000;

const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addSubnet('0.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');
THIS_MACHINE.addAddress('::', 'ipv6');

/** A host as compared: lower case, without IPv6 brackets or a trailing dot. */
export function hostName(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/** A loopback or unspecified address (IPv4-mapped IPv6 ones included). */
export function isThisMachineAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && THIS_MACHINE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** This machine by its name alone, before any lookup. */
export function isThisMachineName(host: string): boolean {
  const name = hostName(host);
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === 'ip6-localhost' ||
    name === 'ip6-loopback' ||
    name.startsWith('/') ||
    isThisMachineAddress(name)
  );
}

/** The host and port of a postgres:// URL, as the driver would read them. */
function endpointOfUrl(url: string): Endpoint | undefined {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || process.env.PGHOST || 'localhost';
    return { host: hostName(host), port: Number(parsed.port || parsed.searchParams.get('port') || process.env.PGPORT || 5432) };
  } catch {
    return undefined;
  }
}

/** Thrown when a tenant names this machine or the main database's server. */
export class ReservedTarget extends Error {
  constructor(readonly host: string) {
    super(`${host} is the platform's`);
  }
}

/** This machine and the main database's server, for the checks of a tenant's targets. */
export class PlatformAddresses {
  private main?: Promise<{ names: Endpoint[]; addresses: Endpoint[] }>;

  /** `db`: the main database; `mainUrl`: DATABASE_URL as configured. */
  constructor(
    private readonly db: Db,
    private readonly mainUrl?: string,
    private readonly resolve: Resolver = resolveAll,
  ) {}

  /** The main database's server: its names from the URLs, its addresses resolved and as the server reports them. */
  private mainServer() {
    this.main ??= (async () => {
      const urls = [this.mainUrl, (this.db as Db & { pool?: pg.Pool }).pool?.options.connectionString];
      const names = urls.flatMap((url) => (url ? [endpointOfUrl(url)].filter((e): e is Endpoint => e !== undefined) : []));
      const addresses: Endpoint[] = [];
      for (const { host, port } of names) {
        const resolved = isIP(host) ? [host] : await this.resolve(host).catch(() => [] as string[]);
        addresses.push(...resolved.map((address) => ({ host: address, port })));
      }
      if (this.db.kind === 'postgres') {
        const [own] = await this.db
          .query<{ host: string | null; port: number | null }>('SELECT host(inet_server_addr()) AS host, inet_server_port() AS port')
          .catch(() => []);
        if (own?.host && own.port) addresses.push({ host: own.host, port: Number(own.port) });
      }
      return { names, addresses };
    })();
    return this.main;
  }

  /** Whether a tenant's host:port is, by its name alone, this machine or the main database's server. */
  async reservedByName(host: string, port: number): Promise<boolean> {
    if (isThisMachineName(host)) return true;
    const { names } = await this.mainServer();
    return names.some((e) => e.port === port && e.host === hostName(host));
  }

  /**
   * The address a tenant's host:port is reached at: the name resolved once. ReservedTarget when
   * any of its addresses is this machine or the main database's server; the resolver's error when
   * the name does not resolve.
   */
  async tenantAddress(host: string, port: number): Promise<string> {
    if (await this.reservedByName(host, port)) throw new ReservedTarget(host);
    const name = hostName(host);
    const addresses = isIP(name) ? [name] : await this.resolve(name);
    if (!addresses.length) throw new Error(`${name} has no address`);
    const main = (await this.mainServer()).addresses;
    const same = (a: string, b: string) => a === b || (isIP(b) !== 0 && single(b).check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6'));
    if (addresses.some((a) => isThisMachineAddress(a) || main.some((e) => e.port === port && same(a, e.host))))
      throw new ReservedTarget(host);
    return addresses[0];
  }
}

/** A list holding one address (BlockList compares address forms: ::ffff:a.b.c.d and a.b.c.d alike). */
function single(address: string): BlockList {
  const list = new BlockList();
  list.addAddress(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  return list;
}

/** Waits until FAILURE_FLOOR_MS have passed since `started` (Date.now()). */
export async function failureFloor(started: number): Promise<void> {
  const left = started + FAILURE_FLOOR_MS - Date.now();
  if (left > 0) await sleep(left);
}
