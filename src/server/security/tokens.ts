// Access tokens: HS256 JWTs signed with this installation's own key. The key is generated on first
// start and kept in the database (so every server process of one installation shares it), unless
// ZS_JWT_SECRET gives one. There is no default key.
//
// Revocation: each user has a token generation (zs_token_generation, 0 until first revoked). A token
// carries the generation its user had when it was signed (`gen`); it is void once the user's
// generation is higher. Logout, disabling, removal, a password change or reset, and a change of
// roles or departments raise it (IdentityService.revokeUsers), inside the writing transaction. No
// clock is compared: a login right after a logout, in the same second or millisecond, reads the new
// generation and its token works. Each process keeps the generations it has read (a map lookup
// per request; a database read per user at most every GENERATION_TTL_MS) and forgets a user's as
// soon as the cache bus signals that it was raised by any process (LISTEN/NOTIFY, delivered after
// the commit: milliseconds). Raised on this process, it is forgotten at once as well.
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import type { Db, Queryable } from '../db/db.ts';
import type { CacheBus } from '../realtime/cache-bus.ts';
import { loadKeyMaterial } from './secret-box.ts';

/** One row per user ever revoked. */
export const TOKEN_DDL = `
CREATE TABLE IF NOT EXISTS zs_token_generation (user_id bigint PRIMARY KEY, generation bigint NOT NULL, revoked_at timestamptz NOT NULL DEFAULT now());
`;

export interface Claims {
  tenant_id: string;
  user_id: string;
  dept_id?: string;
  role_id?: string;
  role_name?: string;
  account?: string;
  user_name?: string;
  real_name?: string;
  client_id?: string;
  /** The user signed in with a password someone else knows: only changing it is open (http/auth.ts). */
  zs_password_change?: boolean;
  /** The user's token generation when it was signed (set by sign()). */
  gen?: number;
}

export interface TokenService {
  sign(claims: Claims, expiresInSeconds?: number): Promise<string>;
  /** The token's claims, if it is genuine, unexpired and not revoked. */
  verify(token: string): Promise<Claims>;
  /**
   * Voids every access token issued so far to these users: at once on this process, on the others
   * when `tx` (the writing transaction, or the pool) has committed and the signal has reached them.
   */
  revoke(tx: Queryable, userIds: readonly string[]): Promise<void>;
  /** Hears of revocations made by any process (see cache-bus.ts). */
  shareThrough(bus: CacheBus): void;
}

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid' | 'revoked') {
    super(reason);
  }
}

const ISSUER = 'zhusuan';

/** Loads (or on first start creates) the signing key. */
export async function loadSigningKey(db: Db, fromEnv?: string): Promise<Uint8Array> {
  return loadKeyMaterial(db, 'jwt.secret', fromEnv, 'ZS_JWT_SECRET');
}

/** Verified tokens, kept until they expire: checking a signature costs far more than a lookup. */
class VerifiedCache {
  private readonly entries = new Map<string, { claims: Claims; exp: number }>();
  constructor(private readonly limit = 10_000) {}

  get(token: string): Claims | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (hit.exp * 1000 <= Date.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.claims;
  }

  set(token: string, claims: Claims, exp: number) {
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { claims, exp });
  }
}

/**
 * A bound on how long a process may serve a generation it read, should a signal be lost without
 * the listening connection dropping (a dropped one empties the cache when it reconnects).
 */
const GENERATION_TTL_MS = 30_000;
const GENERATIONS_KEPT = 50_000;

/** The users' token generations as this process last read them. */
class Generations {
  private readonly entries = new Map<string, { at: number; generation: Promise<number> }>();
  constructor(private readonly db: Db) {}

  /** The stored generation, read now (signing must never use a stale one). */
  async read(userId: string): Promise<number> {
    if (!/^\d{1,19}$/.test(userId)) return 0;
    const [row] = await this.db.query<{ generation: string }>(
      `SELECT generation::text AS generation FROM zs_token_generation WHERE user_id = $1`,
      [userId],
      { prepare: true },
    );
    return row ? Number(row.generation) : 0;
  }

  /** The generation, from this process's copy when it has a recent one. */
  of(userId: string): Promise<number> {
    const hit = this.entries.get(userId);
    if (hit && Date.now() - hit.at < GENERATION_TTL_MS) return hit.generation;
    // the promise is kept, not its value: a forget() while it is read drops it, so a read that
    // raced a revocation is never kept
    const generation = this.read(userId);
    if (this.entries.size >= GENERATIONS_KEPT) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(userId, { at: Date.now(), generation });
    generation.catch(() => {
      if (this.entries.get(userId)?.generation === generation) this.entries.delete(userId);
    });
    return generation;
  }

  forget(userIds?: readonly string[]) {
    if (!userIds) this.entries.clear();
    else for (const id of userIds) this.entries.delete(id);
  }
}

export interface TokenServiceOptions {
  /** Where the token generations live; without it (benchmarks' signers) tokens cannot be revoked. */
  db?: Db;
  lifetimeSeconds?: number;
}

export function createTokenService(key: Uint8Array, { db, lifetimeSeconds = 3600 }: TokenServiceOptions = {}): TokenService {
  const verified = new VerifiedCache();
  const generations = db && new Generations(db);
  let bus: CacheBus | undefined;

  const genuine = async (token: string): Promise<Claims> => {
    const cached = verified.get(token);
    if (cached) return cached;
    try {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.tenant_id !== 'string' || typeof payload.user_id !== 'string' || typeof payload.exp !== 'number')
        throw new TokenError('invalid');
      if (payload.gen !== undefined && !Number.isSafeInteger(payload.gen)) throw new TokenError('invalid');
      verified.set(token, payload as unknown as Claims, payload.exp);
      return payload as unknown as Claims;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      throw new TokenError('invalid');
    }
  };

  return {
    async sign(claims, expiresIn = lifetimeSeconds) {
      const gen = generations ? await generations.read(claims.user_id) : 0;
      return new SignJWT({ ...claims, gen })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
        .sign(key);
    },
    async verify(token) {
      const claims = await genuine(token);
      if (generations && (claims.gen ?? 0) < (await generations.of(claims.user_id))) throw new TokenError('revoked');
      return claims;
    },
    async revoke(tx, userIds) {
      const ids = [...new Set(userIds)].filter((id) => /^\d{1,19}$/.test(id));
      if (!generations || !ids.length) return;
      await tx.query(
        `INSERT INTO zs_token_generation (user_id, generation) SELECT u, 1 FROM unnest($1::bigint[]) AS u
         ON CONFLICT (user_id) DO UPDATE SET generation = zs_token_generation.generation + 1, revoked_at = now()`,
        [ids],
      );
      generations.forget(ids);
      await bus?.announce(tx, 'tokens', ids);
    },
    shareThrough(cacheBus) {
      bus = cacheBus;
      cacheBus.on('tokens', (userIds) => generations?.forget(userIds));
    },
  };
}
