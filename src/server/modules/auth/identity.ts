// Who may log in, and the tokens they get: the password, captcha and refresh_token grants of the
// platform's /oauth/token endpoint, failed logins, refresh token rotation and revocation. Passwords
// and client secrets are kept as scrypt hashes in zs_credential.
//
// Failed logins tell nothing and lock no one out. A wrong password costs one scrypt verification
// and answers the same whether the account exists or not (a missing one is checked against a dummy
// hash). Failures are counted per tenant, account name and client address in zs_login_failure (in
// the database: every process shares them), never per user row, so a missing account counts like an
// existing one. After account.failCount (5) failures in 30 minutes from one address, or after
// ZS_LOGIN_LIMIT_ACCOUNT failures from all addresses for an address that has not signed in to the
// account in the last 30 days, the password grant needs a valid captcha too (`captcha_required`);
// the right password still signs in, with the captcha there and without it everywhere else.
//
// A password someone else knows must be changed before anything else: the initial password (of a
// new tenant's admin, of an imported account, after a reset, or typed at sign-in while it is the
// tenant's account.initPassword) marks the credential `must_change`. Its tokens carry
// `zs_password_change` and open only what changing it needs (http/auth.ts); the change clears it.
import { randomUUID } from 'node:crypto';
import type { MessageKey } from '../../../engine/i18n/messages.ts';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import { nowText } from '../../clock.ts';
import type { Db, Queryable, Row } from '../../db/db.ts';
import { q, selectList, toRecord } from '../../db/sql.ts';
import { PLATFORM_TENANT } from '../../db/store.ts';
import { clientHash, hashPassword, randomToken, tokenDigest, verifyPassword } from '../../security/passwords.ts';
import type { Claims, TokenService } from '../../security/tokens.ts';
import { PARAMS, readParam } from '../system/params.ts';
import { checkCaptcha } from './captcha.ts';

export const IDENTITY_DDL = `
CREATE TABLE IF NOT EXISTS zs_credential (
  subject varchar(16) NOT NULL, subject_id bigint NOT NULL, hash text NOT NULL,
  fail_count integer NOT NULL DEFAULT 0, locked_until timestamptz, PRIMARY KEY (subject, subject_id));
ALTER TABLE zs_credential ADD COLUMN IF NOT EXISTS must_change boolean NOT NULL DEFAULT false;
CREATE TABLE IF NOT EXISTS zs_refresh_token (
  token_hash varchar(64) PRIMARY KEY, user_id bigint NOT NULL, tenant_id varchar(12) NOT NULL, client_id varchar(48) NOT NULL,
  dept_id varchar(1000), role_id varchar(1000), expires_at timestamptz NOT NULL, revoked boolean NOT NULL DEFAULT false);
CREATE INDEX IF NOT EXISTS zs_refresh_token_user_idx ON zs_refresh_token (user_id);
CREATE TABLE IF NOT EXISTS zs_login_failure (
  tenant_id varchar(12) NOT NULL, account varchar(100) NOT NULL, address varchar(64) NOT NULL,
  failures integer NOT NULL DEFAULT 0, last_failure timestamptz, last_success timestamptz,
  PRIMARY KEY (tenant_id, account, address));
`;

/** Failures older than this are forgotten. */
const FAILURE_MINUTES = 30;
/** An address that signed in to an account within this many days is known to it. */
const KNOWN_DAYS = 30;
/** Forgotten failures and old successes are swept once every this many failed logins of a process. */
const SWEEP_EVERY = 200;

/** A refused login, answered in the OAuth2 shape {error, error_description}. */
export class LoginError extends Error {
  /** `lockedNow`: after this failure the account needs the captcha from this address (the audit log records it as a lock). */
  constructor(
    readonly status: number,
    readonly error: string,
    readonly key: MessageKey,
    readonly lockedNow = false,
  ) {
    super(key);
  }
}

export interface TokenRequest {
  grantType: string;
  tenantId: string;
  username?: string;
  password?: string;
  refreshToken?: string;
  captchaKey?: string;
  captchaCode?: string;
  /** The client's address (clientAddress()): failures are counted per account and address. */
  address?: string;
  deptId?: string;
  roleId?: string;
  client: ClientRecord;
}

export interface ClientRecord {
  id: string;
  clientId: string;
  authorizedGrantTypes: string;
  accessTokenValidity: number;
  refreshTokenValidity: number;
}

export type TokenResponse = Record<string, unknown>;

/** What failed logins are counted by: the tenant, the account name as typed (existing or not) and the client's address. */
interface FailureKey {
  tenantId: string;
  account: string;
  address: string;
}

export interface LoginLimits {
  /** Failures of one account from all addresses (30 minutes) after which an address that never signed in to it needs the captcha. */
  perAccount: number;
}

export class IdentityService {
  /** Checks a secret against a stored hash. A seam: tests count the verifications a login makes. */
  verify: (secret: string, stored: string) => Promise<boolean> = verifyPassword;
  /** Checked instead of a stored hash when there is none (a missing account): the same work. */
  private readonly dummyHash: Promise<string>;
  private failedLogins = 0;

  constructor(
    readonly db: Db,
    private readonly catalog: EntityCatalog,
    private readonly tokens: TokenService,
    private readonly timeZone: string,
    private readonly limits: LoginLimits = { perAccount: 10 },
  ) {
    // made now, so that the first missing account costs no more than the next ones
    this.dummyHash = hashPassword(randomToken());
  }

  private table(key: string) {
    return q(this.catalog.entities[key].table);
  }

  // ---- credentials ----

  /** Stores a secret's hash; `mustChange`: a password someone else knows, to be changed at the next sign-in. */
  async setCredential(tx: Queryable, subject: 'user' | 'client', id: string, secret: string, { mustChange = false } = {}) {
    const hash = await hashPassword(secret);
    await tx.query(
      `INSERT INTO zs_credential (subject, subject_id, hash, must_change) VALUES ($1, $2, $3, $4)
       ON CONFLICT (subject, subject_id) DO UPDATE SET hash = EXCLUDED.hash, must_change = EXCLUDED.must_change, fail_count = 0, locked_until = NULL`,
      [subject, id, hash, mustChange],
    );
  }

  /** The tenant's initial password (account.initPassword) as the client sends it (md5), or undefined when there is none. */
  async initialPassword(db: Queryable, tenantId: string): Promise<string | undefined> {
    const initial = await readParam(db, this.catalog, tenantId, PARAMS.initPassword, '');
    return initial ? clientHash(initial) : undefined;
  }

  /**
   * Whether the user must change the password before anything else: it was set to the initial
   * password (or by an administrator's reset), or the one just typed is the tenant's initial
   * password, which is then recorded (a refreshed token keeps the duty until the change).
   */
  private async mustChangePassword(tenantId: string, userId: string, typed?: string): Promise<boolean> {
    const [row] = await this.db.query<{ must_change: boolean }>(
      `SELECT must_change FROM zs_credential WHERE subject = 'user' AND subject_id = $1`,
      [userId],
    );
    if (row?.must_change) return true;
    if (typed === undefined || typed !== (await this.initialPassword(this.db, tenantId))) return false;
    await this.db.query(`UPDATE zs_credential SET must_change = true WHERE subject = 'user' AND subject_id = $1`, [userId]);
    return true;
  }

  async checkCredential(subject: 'user' | 'client', id: string, secret: string): Promise<boolean> {
    const [row] = await this.db.query<{ hash: string }>(`SELECT hash FROM zs_credential WHERE subject = $1 AND subject_id = $2`, [
      subject,
      id,
    ]);
    return row !== undefined && (await this.verify(secret, row.hash));
  }

  /** Forgets the failed logins of these users' accounts, from every address: no captcha is needed any more. */
  async unlock(tx: Queryable, userIds: string[]) {
    await tx.query(
      `UPDATE zs_credential SET fail_count = 0, locked_until = NULL WHERE subject = 'user' AND subject_id = ANY($1::bigint[])`,
      [userIds],
    );
    await tx.query(
      `UPDATE zs_login_failure f SET failures = 0 FROM ${this.table('user')} u
        WHERE u.id = ANY($1::bigint[]) AND f.tenant_id = u.tenant_id AND f.account = u.account AND f.failures > 0`,
      [userIds],
    );
  }

  /**
   * Ends every session of these users: their refresh tokens stop working, and so do the access
   * tokens they hold, on every process (tokens.ts, revocation).
   */
  async revokeUsers(tx: Queryable, userIds: string[]) {
    await tx.query(`UPDATE zs_refresh_token SET revoked = true WHERE user_id = ANY($1::bigint[]) AND NOT revoked`, [userIds]);
    await this.tokens.revoke(tx, userIds);
  }

  // ---- clients ----

  /** The OAuth client from `Authorization: Basic base64(id:secret)`. */
  async authenticateClient(header: string | undefined): Promise<ClientRecord> {
    const match = header && /^basic\s+(\S+)$/i.exec(header.trim());
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 1) throw new LoginError(401, 'invalid_client', 'clientAuthFailed');
    const [clientId, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    const model = this.catalog.entities.client;
    const [row] = await this.db.query(
      `SELECT ${selectList(model.columns)} FROM ${q(model.table)} t WHERE t.client_id = $1 AND t.is_deleted = 0`,
      [clientId],
    );
    if (!row || !(await this.checkCredential('client', row.id, secret))) throw new LoginError(401, 'invalid_client', 'clientAuthFailed');
    return row as unknown as ClientRecord;
  }

  // ---- the token endpoint ----

  async token(req: TokenRequest): Promise<TokenResponse> {
    const allowed = req.client.authorizedGrantTypes.split(',').map((s) => s.trim());
    if (!['password', 'captcha', 'refresh_token'].includes(req.grantType) || !allowed.includes(req.grantType)) {
      throw new LoginError(400, 'unsupported_grant_type', 'grantNotAllowed');
    }
    if (req.grantType === 'refresh_token') return this.refresh(req);
    if (req.grantType === 'captcha' && !(await checkCaptcha(this.db, req.captchaKey, req.captchaCode))) {
      throw new LoginError(400, 'access_denied', 'captchaWrong');
    }
    await this.checkTenant(req.tenantId);
    const key: FailureKey = {
      tenantId: req.tenantId,
      account: (req.username ?? '').slice(0, 100),
      address: (req.address ?? '').slice(0, 64),
    };
    if (req.grantType === 'password' && (await this.captchaRequired(key))) {
      // the password grant after failures: a captcha like the web's, never a refusal of the right password
      if (!req.captchaKey && !req.captchaCode) throw new LoginError(400, 'captcha_required', 'captchaRequired');
      if (!(await checkCaptcha(this.db, req.captchaKey, req.captchaCode))) throw new LoginError(400, 'access_denied', 'captchaWrong');
    }
    const user = await this.checkPassword(key, req.password ?? '');
    const mustChange = await this.mustChangePassword(req.tenantId, String(user.id), req.password);
    return this.issue(req, user, req.deptId, req.roleId, mustChange);
  }

  private async checkTenant(tenantId: string) {
    const [tenant] = await this.db.query<{ expire: string | null }>(
      `SELECT to_char(expire_time, 'YYYY-MM-DD HH24:MI:SS') AS expire FROM ${this.table('tenant')} WHERE tenant_id = $1 AND is_deleted = 0`,
      [tenantId],
    );
    if (!tenant) throw new LoginError(400, 'access_denied', 'tenantNotFound');
    if (tenantId !== PLATFORM_TENANT && tenant.expire && tenant.expire < nowText(this.timeZone))
      throw new LoginError(400, 'access_denied', 'tenantExpired');
  }

  /** The user of an account and its password hash, in one statement whether the account exists or not. */
  private async userByAccount(tenantId: string, account: string): Promise<{ user?: Row; hash?: string }> {
    const model = this.catalog.entities.user;
    const [row] = await this.db.query(
      `SELECT ${selectList(model.columns)}, c.hash AS zs_hash FROM ${q(model.table)} t
         LEFT JOIN zs_credential c ON c.subject = 'user' AND c.subject_id = t.id
        WHERE t.tenant_id = $1 AND t.account = $2 AND t.is_deleted = 0`,
      [tenantId, account],
    );
    return row ? { user: toRecord(row, model.columns), hash: (row.zs_hash as string | null) ?? undefined } : {};
  }

  private async userById(tenantId: string, id: string): Promise<Row | undefined> {
    const model = this.catalog.entities.user;
    const [row] = await this.db.query(
      `SELECT ${selectList(model.columns)} FROM ${q(model.table)} t WHERE t.tenant_id = $1 AND t.id = $2 AND t.is_deleted = 0`,
      [tenantId, id],
    );
    return row && toRecord(row, model.columns);
  }

  /** Failures from one address after which the password grant needs the captcha there (the tenant's account.failCount). */
  private async failureLimit(tenantId: string): Promise<number> {
    return Number(await readParam(this.db, this.catalog, tenantId, PARAMS.failCount, '5')) || 5;
  }

  /** Whether the password grant needs a captcha for this account from this address. */
  private async captchaRequired(key: FailureKey): Promise<boolean> {
    const [row] = await this.db.query<{ here: number; everywhere: number; known: boolean }>(
      `SELECT coalesce(sum(failures) FILTER (WHERE address = $3 AND last_failure > now() - make_interval(mins => $4)), 0)::int AS here,
              coalesce(sum(failures) FILTER (WHERE last_failure > now() - make_interval(mins => $4)), 0)::int AS everywhere,
              coalesce(bool_or(address = $3 AND last_success > now() - make_interval(days => $5)), false) AS known
         FROM zs_login_failure WHERE tenant_id = $1 AND account = $2`,
      [key.tenantId, key.account, key.address, FAILURE_MINUTES, KNOWN_DAYS],
    );
    if (!row) return false;
    return row.here >= (await this.failureLimit(key.tenantId)) || (row.everywhere >= this.limits.perAccount && !row.known);
  }

  /**
   * Checks the password: one verification, against the account's hash or, when there is none, a
   * dummy of the same cost; a failure is counted for the account name and address either way.
   */
  private async checkPassword(key: FailureKey, password: string): Promise<Row> {
    const { user, hash } = await this.userByAccount(key.tenantId, key.account);
    const right = await this.verify(password, hash ?? (await this.dummyHash));
    if (!user || !hash || !right) {
      const limit = await this.failureLimit(key.tenantId);
      const [after] = await this.db.query<{ failures: number }>(
        `INSERT INTO zs_login_failure AS f (tenant_id, account, address, failures, last_failure) VALUES ($1, $2, $3, 1, now())
         ON CONFLICT (tenant_id, account, address) DO UPDATE
           SET failures = CASE WHEN f.last_failure > now() - make_interval(mins => $4) THEN f.failures + 1 ELSE 1 END, last_failure = now()
         RETURNING failures`,
        [key.tenantId, key.account, key.address, FAILURE_MINUTES],
      );
      if (++this.failedLogins % SWEEP_EVERY === 0) await this.sweepFailures();
      throw new LoginError(400, 'invalid_grant', 'badCredentials', after?.failures === limit);
    }
    await this.db.query(
      `INSERT INTO zs_login_failure AS f (tenant_id, account, address, failures, last_success) VALUES ($1, $2, $3, 0, now())
       ON CONFLICT (tenant_id, account, address) DO UPDATE SET failures = 0, last_success = now()`,
      [key.tenantId, key.account, key.address],
    );
    this.checkStatus(user);
    return user;
  }

  private async sweepFailures() {
    await this.db.query(
      `DELETE FROM zs_login_failure
        WHERE (last_failure IS NULL OR last_failure < now() - make_interval(mins => $1))
          AND (last_success IS NULL OR last_success < now() - make_interval(days => $2))`,
      [FAILURE_MINUTES, KNOWN_DAYS],
    );
  }

  private checkStatus(user: Row) {
    if (user.status === 2) throw new LoginError(400, 'access_denied', 'accountPending');
    if (user.status !== 1) throw new LoginError(400, 'access_denied', 'accountDisabled');
  }

  /** Rotation: a refresh token works once; presenting a used one again ends all the user's sessions. */
  private async refresh(req: TokenRequest): Promise<TokenResponse> {
    const digest = tokenDigest(req.refreshToken ?? '');
    const [row] = await this.db.query<{
      user_id: string;
      tenant_id: string;
      dept_id: string | null;
      role_id: string | null;
      revoked: boolean;
      valid: boolean;
    }>(
      `SELECT user_id::text, tenant_id, dept_id, role_id, revoked, (expires_at > now()) AS valid FROM zs_refresh_token WHERE token_hash = $1 AND client_id = $2`,
      [digest, req.client.clientId],
    );
    if (!row || !row.valid) throw new LoginError(400, 'invalid_grant', 'refreshInvalid');
    if (row.revoked) {
      // a used token presented again: someone holds a copy, so every session of the user ends
      await this.revokeUsers(this.db, [row.user_id]);
      throw new LoginError(400, 'invalid_grant', 'refreshInvalid');
    }
    const claimed = await this.db.query(
      `UPDATE zs_refresh_token SET revoked = true WHERE token_hash = $1 AND NOT revoked RETURNING token_hash`,
      [digest],
    );
    if (!claimed.length) throw new LoginError(400, 'invalid_grant', 'refreshInvalid');
    const user = await this.userById(row.tenant_id, row.user_id);
    if (!user) throw new LoginError(400, 'invalid_grant', 'refreshInvalid');
    this.checkStatus(user);
    await this.checkTenant(row.tenant_id);
    return this.issue(
      { ...req, tenantId: row.tenant_id },
      user,
      req.deptId || row.dept_id || undefined,
      req.roleId || row.role_id || undefined,
      await this.mustChangePassword(row.tenant_id, row.user_id),
    );
  }

  /** Narrows to the department and role chosen at login when switch mode is on. */
  private async narrow(tenantId: string, all: string[], chosen: string | undefined): Promise<string[]> {
    if (!chosen) return all;
    const switchMode = (await readParam(this.db, this.catalog, tenantId, PARAMS.switchMode, 'false')) === 'true';
    if (!switchMode) return all;
    const wanted = chosen.split(',').filter((id) => all.includes(id));
    return wanted.length ? wanted : all;
  }

  private async issue(req: TokenRequest, user: Row, deptChoice?: string, roleChoice?: string, mustChange = false): Promise<TokenResponse> {
    const split = (v: unknown) =>
      String(v ?? '')
        .split(',')
        .filter(Boolean);
    const roleIds = await this.narrow(req.tenantId, split(user.roleId), roleChoice);
    const deptIds = await this.narrow(req.tenantId, split(user.deptId), deptChoice);
    const roles = await this.db.query<{ id: string; alias: string; name: string }>(
      `SELECT id::text AS id, role_alias AS alias, role_name AS name FROM ${this.table('role')} WHERE id = ANY($1::bigint[]) AND tenant_id = $2 AND is_deleted = 0`,
      [roleIds, req.tenantId],
    );
    if (!roles.length) throw new LoginError(400, 'access_denied', 'noRoles');
    const claims: Claims = {
      tenant_id: req.tenantId,
      user_id: String(user.id),
      dept_id: deptIds.join(','),
      role_id: roles.map((r) => r.id).join(','),
      role_name: roles.map((r) => r.alias).join(','),
      account: String(user.account),
      user_name: String(user.account),
      real_name: String(user.realName ?? ''),
      client_id: req.client.clientId,
      ...(mustChange ? { zs_password_change: true } : {}),
    };
    const accessToken = await this.tokens.sign(claims, req.client.accessTokenValidity);
    const refreshToken = randomToken();
    await this.db.query(
      `INSERT INTO zs_refresh_token (token_hash, user_id, tenant_id, client_id, dept_id, role_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      [
        tokenDigest(refreshToken),
        user.id,
        req.tenantId,
        req.client.clientId,
        claims.dept_id,
        claims.role_id,
        req.client.refreshTokenValidity,
      ],
    );
    return {
      access_token: accessToken,
      token_type: 'bearer',
      refresh_token: refreshToken,
      expires_in: req.client.accessTokenValidity,
      scope: 'all',
      jti: randomUUID(),
      client_id: req.client.clientId,
      tenant_id: req.tenantId,
      user_id: String(user.id),
      dept_id: claims.dept_id,
      post_id: String(user.postId ?? ''),
      role_id: claims.role_id,
      oauth_id: '',
      account: user.account,
      user_name: user.account,
      nick_name: user.name ?? '',
      real_name: user.realName ?? '',
      role_name: claims.role_name,
      avatar: user.avatar ?? '',
      detail: { type: 'web' },
      license: 'powered by zhusuan',
      // ours: the client opens nothing but the password change until it is made
      must_change_password: mustChange,
    };
  }
}
