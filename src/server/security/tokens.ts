// Access tokens: HS256 JWTs signed with this installation's own key. The key is generated on first
// start and kept in the database (so every server process of one installation shares it), unless
// ZS_JWT_SECRET gives one. There is no default key.
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import type { Db } from '../db/db.ts';
import { loadKeyMaterial } from './secret-box.ts';

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
}

export interface TokenService {
  sign(claims: Claims, expiresInSeconds?: number): Promise<string>;
  verify(token: string): Promise<Claims>;
}

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
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

export function createTokenService(key: Uint8Array, defaultLifetimeSeconds = 3600): TokenService {
  const verified = new VerifiedCache();
  return {
    async sign(claims, expiresIn = defaultLifetimeSeconds) {
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
        .sign(key);
    },
    async verify(token) {
      const cached = verified.get(token);
      if (cached) return cached;
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        if (typeof payload.tenant_id !== 'string' || typeof payload.user_id !== 'string' || typeof payload.exp !== 'number') throw new TokenError('invalid');
        verified.set(token, payload as unknown as Claims, payload.exp);
        return payload as unknown as Claims;
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw new TokenError('expired');
        throw new TokenError('invalid');
      }
    },
  };
}
