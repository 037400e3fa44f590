// A server module is a declaration (module.ts): createApp loops over modules/index.ts, and the hooks
// of an entity run in the list's order. The order is data, printed here for the rules that depend on
// it; the chain itself runs each event's hooks in order and joins validate's field errors.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import type { EntityHooks } from '../db/store.ts';
import { SERVER_MODULES } from './index.ts';
import { openApiDocument } from '../../engine/openapi/openapi.ts';
import { composeHooks, openApiFragments, type Platform, type ServerModule } from './module.ts';

const { catalog, ajv } = compiledSchemaSet();

/** What the hook factories capture: none of them touches a database until a hook runs. */
const platform = {
  ctx: { catalog, ajv, timeZone: 'Asia/Shanghai', dictionaryEntities: { system: 'dict', biz: 'dictBiz' } },
  config: { timeZone: 'Asia/Shanghai' },
  hub: { notifier: {} },
  secretBox: {},
  access: {},
  identity: {},
  flow: {},
  reference: {},
} as unknown as Platform;

const keyOf = (role: string) => Object.values(catalog.entities).find((m) => m.roles.includes(role))!.key;

describe('the server modules', () => {
  const { order } = composeHooks(SERVER_MODULES, platform);

  it('run the hooks of a monthly settlement in the order its rules need', () => {
    // the approval lock refuses a change first; the previous and cumulative values are written
    // before the warnings read them
    expect(order.laborMonthlySettlement).toEqual({
      beforeWrite: ['flow', 'cumulative'],
      afterWrite: ['cumulative', 'warning'],
      beforeRemove: ['flow', 'warning'],
      afterStatus: ['cumulative', 'warning'],
      afterRead: ['flow'],
    });
  });

  it('write the stock ledger before the warnings read a stock document', () => {
    const receipt = order[keyOf('stock.receipt')];
    expect(receipt.afterStatus?.indexOf('ledger')).toBe(0);
    expect(receipt.afterStatus).toContain('warning');
  });

  it('give the platform entities their own hooks', () => {
    expect(order.user).toEqual({ validate: ['system'], beforeWrite: ['system'], afterWrite: ['system'], beforeRemove: ['system'] });
    expect(order.datasource).toMatchObject({ afterRead: ['develop'] });
  });

  it('put the approval lock before every other hook of a document under approval', () => {
    for (const model of Object.values(catalog.entities).filter((m) => m.workflow)) {
      expect(order[model.key].beforeWrite?.[0], model.key).toBe('flow');
      expect(order[model.key].beforeRemove?.[0], model.key).toBe('flow');
    }
  });
});

describe("the modules' parts of the OpenAPI document", () => {
  it('are in it, and a document under approval is submitted by the flow module', () => {
    const fragments = openApiFragments(SERVER_MODULES, catalog);
    const document = openApiDocument(catalog, { title: 'Zhusuan API', version: '1' }, fragments);
    expect(fragments.length).toBeGreaterThanOrEqual(5);
    for (const fragment of fragments)
      for (const [path, item] of Object.entries(fragment.paths ?? {})) expect(document.paths[path], path).toEqual(item);
    const submit = document.paths[`${catalog.entities.laborMonthlySettlement.api}/submit`].post;
    expect(submit.summary).toMatch(/approval/i);
    expect(document.components.schemas).toMatchObject(Object.assign({}, ...fragments.map((f) => f.schemas ?? {})));
  });
});

describe('an entity hooks chain', () => {
  const calls: string[] = [];
  const module = (name: string, hooks: EntityHooks): ServerModule => ({ name, hooks: () => ({ doc: hooks }) });
  const { hooks, order } = composeHooks(
    [
      module('first', {
        validate: () => [{ path: '/a', message: 'a' }],
        afterWrite: async () => void calls.push('first'),
      }),
      module('second', {
        validate: () => [{ path: '/b', message: 'b' }],
        afterWrite: async () => void calls.push('second'),
      }),
      module('third', { afterStatus: async () => void calls.push('third') }),
    ],
    platform,
  );

  it('runs each event in the modules order and joins the field errors', async () => {
    expect(order.doc).toEqual({ validate: ['first', 'second'], afterWrite: ['first', 'second'], afterStatus: ['third'] });
    expect(hooks.doc.validate!({ body: {}, creating: true, actor: {} as never })).toEqual([
      { path: '/a', message: 'a' },
      { path: '/b', message: 'b' },
    ]);
    await hooks.doc.afterWrite!({} as never);
    expect(calls).toEqual(['first', 'second']);
    expect(hooks.doc.beforeWrite).toBeUndefined();
  });
});
