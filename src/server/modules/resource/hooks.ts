// The resource entities' part of the write pipeline:
// - oss and sms secret keys are write-only fields: kept in their own table (never a column of the
//   configuration, never returned); an empty one on update keeps the stored key;
// - a storage configuration that still holds attachments cannot be removed (their files would be
//   lost to the application);
// - an uploaded file's attachment record gets its object fields from the upload itself, through a
//   symbol-keyed value no JSON body can carry.
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { Queryable } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import type { EntityHooks } from '../../db/store.ts';
import { AppError } from '../../errors.ts';

export const SECRET_TABLE = 'blade_resource_secret';
export const SMS_RECORD_TABLE = 'blade_sms_record';

export const RESOURCE_DDL = `
CREATE TABLE IF NOT EXISTS ${SECRET_TABLE} (
  owner varchar(16) NOT NULL,
  owner_id bigint NOT NULL,
  tenant_id varchar(12) NOT NULL,
  secret text NOT NULL,
  PRIMARY KEY (owner, owner_id)
);
CREATE TABLE IF NOT EXISTS ${SMS_RECORD_TABLE} (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  sms_code varchar(32) NOT NULL,
  category varchar(8) NOT NULL,
  template_id varchar(64),
  sign_name varchar(64),
  phones text NOT NULL,
  params text NOT NULL,
  create_user bigint,
  create_time timestamp NOT NULL
);
CREATE INDEX IF NOT EXISTS ${SMS_RECORD_TABLE}_tenant ON ${SMS_RECORD_TABLE} (tenant_id, id DESC);
`;

/** The object fields of an uploaded file, handed from the upload route to the attach hook. */
export const UPLOADED = Symbol('uploaded file');

export interface UploadedFile {
  link: string;
  domain: string;
  name: string;
  extension: string;
  attachSize: number;
  ossCode: string;
}

export async function readSecret(db: Queryable, owner: 'oss' | 'sms', ownerId: string, tenantId: string): Promise<string> {
  const [row] = await db.query<{ secret: string }>(
    `SELECT secret FROM ${SECRET_TABLE} WHERE owner = $1 AND owner_id = $2 AND tenant_id = $3`,
    [owner, ownerId, tenantId],
  );
  return row?.secret ?? '';
}

function keepsSecret(owner: 'oss' | 'sms'): EntityHooks {
  return {
    async afterWrite({ tx, actor, id, body }) {
      if (typeof body.secretKey !== 'string' || body.secretKey === '') return;
      await tx.query(
        `INSERT INTO ${SECRET_TABLE} (owner, owner_id, tenant_id, secret) VALUES ($1, $2, $3, $4)
         ON CONFLICT (owner, owner_id) DO UPDATE SET secret = EXCLUDED.secret`,
        [owner, id, actor.tenantId, body.secretKey],
      );
    },
  };
}

export function resourceHooks(catalog: EntityCatalog): Record<string, EntityHooks> {
  const attach = catalog.entities.attach;
  return {
    oss: {
      ...keepsSecret('oss'),
      async beforeRemove({ tx, actor, ids }) {
        const [used] = await tx.query(
          `SELECT 1 FROM ${q(attach.table)} a JOIN ${q(catalog.entities.oss.table)} o ON o.oss_code = a.oss_code AND o.tenant_id = a.tenant_id
            WHERE o.id = ANY($1::bigint[]) AND a.tenant_id = $2 AND a.is_deleted = 0 LIMIT 1`,
          [ids, actor.tenantId],
        );
        if (used) throw new AppError(400, 'referenced', { entity: catalog.entities.oss.label, by: attach.label });
        await tx.query(`DELETE FROM ${SECRET_TABLE} WHERE owner = 'oss' AND owner_id = ANY($1::bigint[]) AND tenant_id = $2`, [
          ids,
          actor.tenantId,
        ]);
      },
    },
    sms: {
      ...keepsSecret('sms'),
      async beforeRemove({ tx, actor, ids }) {
        await tx.query(`DELETE FROM ${SECRET_TABLE} WHERE owner = 'sms' AND owner_id = ANY($1::bigint[]) AND tenant_id = $2`, [
          ids,
          actor.tenantId,
        ]);
      },
    },
    attach: {
      async afterWrite({ tx, actor, id, body, creating }) {
        const file = (body as { [UPLOADED]?: UploadedFile })[UPLOADED];
        if (!creating || !file) return;
        await tx.query(
          `UPDATE ${q(attach.table)} SET link = $1, domain = $2, name = $3, extension = $4, attach_size = $5, oss_code = $6 WHERE id = $7 AND tenant_id = $8`,
          [file.link, file.domain, file.name, file.extension, file.attachSize, file.ossCode, id, actor.tenantId],
        );
      },
    },
  };
}
