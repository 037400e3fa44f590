// What the platform entities need beyond the generic pipeline: passwords and client secrets become
// credentials, a department knows its ancestors, a new tenant gets its number, dictionaries, root
// department, administrator role and account, and any change to grants refreshes the access cache.
import { randomInt } from 'node:crypto';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { FieldError } from '../../../engine/validate/record.ts';
import type { Queryable, Row } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { EntityStore, type Actor, type EntityHooks, type StoreContext } from '../../db/store.ts';
import { AppError } from '../../errors.ts';
import { packageMenuIds, type AccessControl } from '../../security/access.ts';
import type { CacheBus } from '../../realtime/cache-bus.ts';
import { clientHash } from '../../security/passwords.ts';
import type { IdentityService } from '../auth/identity.ts';
import { PARAMS, readParam } from './params.ts';
import type { ReferenceData } from '../../reference/converge.ts';
import { grantMenus } from './grants.ts';
import { copyBusinessRoles } from './tenant-roles.ts';

export interface HookDeps {
  catalog: EntityCatalog;
  identity: IdentityService;
  access: AccessControl;
  /** The data layer, for provisioning a new tenant's records. */
  storeContext: () => StoreContext;
  /** The role aliases the default processes hand tasks to (a new tenant gets these roles). */
  processRoles?: () => Promise<string[]>;
  /** Caches every process keeps (parameters): a change empties them on all. */
  caches?: CacheBus;
  /** The schema set's reference data, which a new tenant is given. */
  referenceData: () => ReferenceData;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

function requiredOnCreate(field: string, label: { zh: string; en: string }) {
  return ({ body, creating, actor }: { body: Row; creating: boolean; actor: Actor }): FieldError[] =>
    creating && blank(body[field]) ? [{ path: `/${field}`, message: t('required', actor.lang, { field: label }) }] : [];
}

function refreshAccess(access: AccessControl): EntityHooks {
  return {
    afterWrite: ({ tx }) => access.invalidate(tx),
    beforeRemove: ({ tx }) => access.invalidate(tx),
  };
}

/**
 * API scope rules match the paths of our API, which all start with /api; the platform's clients
 * write a service path (/blade-system/user/**), which is the same route without the prefix.
 */
function apiScopeHooks(access: AccessControl): EntityHooks {
  return {
    ...refreshAccess(access),
    beforeWrite: async ({ record }) => {
      const path = record.scopePath;
      if (typeof path === 'string' && !path.startsWith('/api/')) record.scopePath = `/api${path}`;
    },
  };
}

function refreshParams(caches: CacheBus | undefined): EntityHooks {
  return {
    afterWrite: async ({ tx }) => caches?.announce(tx, 'params'),
    beforeRemove: async ({ tx }) => caches?.announce(tx, 'params'),
  };
}

async function generateTenantId(tx: Queryable, table: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = String(randomInt(100000, 1000000));
    const [taken] = await tx.query(`SELECT 1 FROM ${table} WHERE tenant_id = $1`, [id]);
    if (!taken) return id;
  }
  throw new Error('could not find a free tenant id');
}

export function systemHooks({
  catalog,
  identity,
  access,
  storeContext,
  processRoles,
  caches,
  referenceData,
}: HookDeps): Record<string, EntityHooks> {
  const label = (entity: string, field: string) => catalog.entities[entity].fieldMap[field].label;
  const users = catalog.entities.user;
  /** What a user's tokens carry or depend on: a change ends the sessions (disabled, other roles or departments). */
  const sessionFields = ['status', 'roleId', 'deptId'].map((name) => users.fieldMap[name]);
  const idSet = (v: unknown) =>
    [
      ...new Set(
        String(v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ]
      .sort()
      .join(',');
  /** Whether the record being written changes what the user's tokens may do. */
  const signsDifferently = async (tx: Queryable, id: string, record: Row) => {
    const [stored] = await tx.query(
      `SELECT ${sessionFields.map((f) => `${q(f.column)} AS ${q(f.name)}`).join(', ')} FROM ${q(users.table)} WHERE id = $1`,
      [id],
    );
    if (!stored) return false;
    // a field absent from the record is written empty (update) or was cleared (updatePart)
    return sessionFields.some((f) =>
      f.name === 'status' ? String(record.status ?? '') !== String(stored.status ?? '') : idSet(record[f.name]) !== idSet(stored[f.name]),
    );
  };
  return {
    user: {
      validate: requiredOnCreate('password', label('user', 'password')),
      async beforeWrite({ tx, actor, creating, record, id }) {
        if (!creating) {
          if (id && (await signsDifferently(tx, id, record))) await identity.revokeUsers(tx, [id]);
          return;
        }
        const [tenant] = await tx.query<{ quota: number | null }>(
          `SELECT account_number AS quota FROM ${q(catalog.entities.tenant.table)} WHERE tenant_id = $1 AND is_deleted = 0`,
          [actor.tenantId],
        );
        if (tenant?.quota !== null && tenant?.quota !== undefined && tenant.quota >= 0) {
          const [{ n }] = await tx.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${q(catalog.entities.user.table)} WHERE tenant_id = $1 AND is_deleted = 0`,
            [actor.tenantId],
          );
          if (n >= tenant.quota) throw new AppError(400, 'accountQuota');
        }
      },
      async afterWrite({ tx, actor, id, body, creating }) {
        if (creating && typeof body.password === 'string') {
          // an account given the initial password (a new tenant's admin, an import) changes it at the first sign-in
          const password = clientHash(body.password);
          const mustChange = password === (await identity.initialPassword(tx, actor.tenantId));
          await identity.setCredential(tx, 'user', id, password, { mustChange });
        }
        if (!creating) await access.invalidate(tx);
      },
      async beforeRemove({ tx, ids }) {
        await identity.revokeUsers(tx, ids);
      },
    },
    client: {
      validate: requiredOnCreate('clientSecret', label('client', 'clientSecret')),
      async afterWrite({ tx, id, body }) {
        if (typeof body.clientSecret === 'string' && body.clientSecret !== '')
          await identity.setCredential(tx, 'client', id, body.clientSecret);
      },
    },
    dept: {
      async beforeWrite({ tx, actor, record }) {
        const parent = String(record.parentId ?? '0');
        if (parent === '0') {
          record.ancestors = '0';
          return;
        }
        const [row] = await tx.query<{ ancestors: string | null }>(
          `SELECT ancestors FROM ${q(catalog.entities.dept.table)} WHERE id = $1 AND tenant_id = $2`,
          [parent, actor.tenantId],
        );
        record.ancestors = `${row?.ancestors ?? '0'},${parent}`;
      },
    },
    tenant: {
      async beforeWrite({ tx, record, creating }) {
        if (creating) record.tenantId = await generateTenantId(tx, q(catalog.entities.tenant.table));
      },
      async afterWrite({ tx, record, creating }) {
        await access.invalidate(tx);
        if (!creating) return;
        const roles = (await processRoles?.()) ?? [];
        await seedTenantAccounts(storeContext(), identity, referenceData(), tx, String(record.tenantId), String(record.tenantName), roles);
      },
    },
    role: refreshAccess(access),
    menu: refreshAccess(access),
    dataScope: refreshAccess(access),
    apiScope: apiScopeHooks(access),
    tenantPackage: refreshAccess(access),
    param: refreshParams(caches),
  };
}

/**
 * A new tenant's own records: the reference data of the schema set (business dictionaries first; the
 * grants its roles are declared once they exist), a root department named after it, the
 * administrator role (alias admin, granted every menu of its package), the admin account, whose
 * password is the initial password parameter (to be changed at first login), and the business
 * roles its processes hand tasks to (`processRoles`, copied from the platform tenant).
 */
export async function seedTenantAccounts(
  ctx: StoreContext,
  identity: IdentityService,
  reference: ReferenceData,
  tx: Queryable,
  tenantId: string,
  tenantName: string,
  processRoles: readonly string[] = [],
) {
  const txCtx: StoreContext = { ...ctx, db: { ...ctx.db, query: tx.query.bind(tx), transaction: (fn) => fn(tx) } };
  const actor: Actor = { tenantId, userId: '0', deptId: null, lang: 'zh' };
  const store = (key: string) => new EntityStore(txCtx, ctx.catalog.entities[key], actor);
  await reference.convergeTenant(tx, tenantId);
  const dept = await store('dept').create({
    parentId: '0',
    deptCategory: '1',
    deptName: tenantName.slice(0, 45),
    fullName: tenantName.slice(0, 45),
    sort: 1,
  });
  const role = await store('role').create({ parentId: '0', roleName: '管理员', roleAlias: 'admin', sort: 1 });
  const password = await readParam(tx, ctx.catalog, tenantId, PARAMS.initPassword, '');
  if (!password) throw new AppError(400, 'missingParam', { param: PARAMS.initPassword });
  await store('user').create({
    account: 'admin',
    password,
    name: '管理员',
    realName: '管理员',
    roleId: role.id,
    deptId: dept.id,
    status: 1,
    userType: '1',
  });
  const packaged = await packageMenuIds(tx, ctx.catalog, tenantId);
  const menuIds = packaged.length
    ? packaged
    : (await tx.query<{ id: string }>(`SELECT id::text AS id FROM ${q(ctx.catalog.entities.menu.table)} WHERE is_deleted = 0`)).map(
        (r) => r.id,
      );
  await grantMenus(tx, tenantId, [role.id], menuIds);
  await copyBusinessRoles(txCtx, tx, tenantId, processRoles, menuIds);
  await reference.convergeTenant(tx, tenantId);
}
