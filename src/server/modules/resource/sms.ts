// /api/blade-resource/sms beyond the generic routes:
//   POST sms/enable?id=                      makes one configuration the tenant's SMS service (sms_enable)
//   POST sms/endpoint/send-message?code=&phones=&params=   sends a template message (sms_send)
//   GET  sms/endpoint/records                what the built-in service recorded (sms menu)
// Providers: the built-in one (category 5, also used when no configuration is enabled) records
// each message in blade_sms_record instead of sending it. A real provider (Yunpian, Qiniu,
// Alibaba Cloud, Tencent Cloud) is configured with the same shape (templateId, signName,
// accessKey, secretKey, regionId) and plugs in as an SmsProvider; none is connected yet, so sending
// through one is refused with a clear message and nothing is recorded.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { nowText } from '../../clock.ts';
import type { Queryable } from '../../db/db.ts';
import { nextId } from '../../db/ids.ts';
import { q, selectList } from '../../db/sql.ts';
import { parseId, type Actor } from '../../db/store.ts';
import { AppError, notFound } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';
import { SMS_RECORD_TABLE } from './hooks.ts';
import { enableOne } from './oss.ts';

type Query = Record<string, string | undefined>;

export const BUILTIN_SMS = { smsCode: 'builtin', category: '5', templateId: '', signName: '' } as const;
const MAX_PHONES = 100;
const MAX_PARAMS_CHARS = 2000;
const PHONE = /^1[3-9]\d{9}$/;

export interface SmsConfig {
  id?: string;
  smsCode: string;
  category: string;
  templateId: string | null;
  signName: string | null;
  accessKey?: string | null;
  regionId?: string | null;
}

export interface SmsMessage {
  phones: string[];
  params: Record<string, string | number>;
}

/** One SMS service. `send` either delivers the message or throws an AppError. */
export interface SmsProvider {
  send(tx: Queryable, actor: Actor, config: SmsConfig, message: SmsMessage, now: string): Promise<void>;
}

/** The built-in service: records what would be sent. */
export const recordingProvider: SmsProvider = {
  async send(tx, actor, config, message, now) {
    await tx.query(
      `INSERT INTO ${SMS_RECORD_TABLE} (id, tenant_id, sms_code, category, template_id, sign_name, phones, params, create_user, create_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        nextId(),
        actor.tenantId,
        config.smsCode,
        config.category,
        config.templateId,
        config.signName,
        message.phones.join(','),
        JSON.stringify(message.params),
        actor.userId,
        now,
      ],
    );
  },
};

/** Providers by dictionary key of `sms`; the real ones join here when they are connected. */
export const SMS_PROVIDERS: Record<string, SmsProvider> = { [BUILTIN_SMS.category]: recordingProvider };

export function parsePhones(raw: string | undefined): string[] {
  const phones = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
  if (!phones.length) throw new AppError(400, 'missingParam', { param: 'phones' });
  const bad = phones.find((p) => !PHONE.test(p));
  if (bad) throw new AppError(400, 'smsPhone', { value: bad.slice(0, 30) });
  if (phones.length > MAX_PHONES) throw new AppError(400, 'smsTooManyPhones', { limit: MAX_PHONES });
  return phones;
}

export function parseSmsParams(raw: string | undefined): Record<string, string | number> {
  if (raw === undefined || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = raw.length <= MAX_PARAMS_CHARS ? JSON.parse(raw) : undefined;
  } catch {
    value = undefined;
  }
  const valid =
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
  if (!valid) throw new AppError(400, 'smsParams');
  return value as Record<string, string | number>;
}

export function registerSmsRoutes(app: FastifyInstance, ctx: RouteContext) {
  const model = ctx.catalog.entities.sms;
  const base = model.api;
  const fields = ['id', 'smsCode', 'category', 'templateId', 'signName', 'accessKey', 'regionId'].map((n) => model.fieldMap[n]);

  async function configOf(tenantId: string, code: string | undefined): Promise<SmsConfig> {
    const [row] = await ctx.db.query<SmsConfig>(
      `SELECT ${selectList(fields)} FROM ${q(model.table)} t WHERE t.tenant_id = $1 AND t.is_deleted = 0 AND ${code ? 't.sms_code = $2' : 't.status = 2'} LIMIT 1`,
      code ? [tenantId, code] : [tenantId],
    );
    if (row) return row;
    if (code && code !== BUILTIN_SMS.smsCode) throw notFound(model.label);
    return { ...BUILTIN_SMS };
  }

  app.post(`${base}/enable`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'sms_enable');
    await enableOne(ctx, model, actor, parseId((request.query as Query).id ?? ((request.body ?? {}) as Query).id));
    return envelope(200, null, t('ok', request.lang));
  });

  app.post(`${base}/endpoint/send-message`, async (request: FastifyRequest) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'sms_send');
    const input = { ...((request.body && typeof request.body === 'object' ? request.body : {}) as Query), ...(request.query as Query) };
    const config = await configOf(actor.tenantId, input.code || undefined);
    const message = { phones: parsePhones(input.phones), params: parseSmsParams(input.params) };
    const provider = SMS_PROVIDERS[config.category];
    if (!provider) throw new AppError(400, 'smsNotConnected', { code: config.smsCode });
    await ctx.db.transaction((tx) => provider.send(tx, actor, config, message, nowText(ctx.timeZone)));
    return envelope(200, { code: config.smsCode, phones: message.phones, recorded: provider === recordingProvider }, t('ok', request.lang));
  });

  app.get(`${base}/endpoint/records`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.check(actor, model, 'view');
    const query = request.query as Query;
    const size = Math.min(Math.max(Number(query.size) || 10, 1), 500);
    const current = Math.max(Number(query.current) || 1, 1);
    const phone = query.phone?.trim();
    const params: unknown[] = [actor.tenantId];
    let where = 'tenant_id = $1';
    if (phone) {
      params.push(phone);
      where += ` AND $${params.length} = ANY(string_to_array(phones, ','))`;
    }
    const [{ total }] = await ctx.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${SMS_RECORD_TABLE} WHERE ${where}`,
      params,
    );
    const records = await ctx.db.query(
      `SELECT id::text AS id, sms_code AS "smsCode", category, template_id AS "templateId", sign_name AS "signName", phones, params,
              create_user::text AS "createUser", to_char(create_time, 'YYYY-MM-DD HH24:MI:SS') AS "createTime"
         FROM ${SMS_RECORD_TABLE} WHERE ${where} ORDER BY id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`,
      params,
    );
    return envelope(200, { records, total, size, current, pages: Math.ceil(total / size) }, t('ok', request.lang));
  });
}
