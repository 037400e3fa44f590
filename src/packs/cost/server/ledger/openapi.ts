// The OpenAPI description of what the material ledger pre-fills (docs/business-rules.md#material-ledger): the
// monthly 收发存 report, a stocktake's book and the turnover items on site, at the API of the
// document type playing each role; the lines they answer carry the fields of the lines they fill, bound by role.
import { ledgerFields } from '../../engine/ledger/roles.ts';
import type { DetailModel, EntityCatalog, FieldModel, JsonSchema } from '../../../../engine/model/types.ts';
import { CONTRACT_PARAM } from './rent-lines.ts';

const amount: JsonSchema = { type: ['number', 'string'], description: 'exact decimal: a number, or a string beyond 15 digits' };
const text = (description: string): JsonSchema => ({ type: 'string', description });

/** A line's goods reference and what it copies of the goods (x-ref.copy), as a line for it is answered, each described by its label. */
function goodsProperties({ lines, line }: { lines: DetailModel; line: { 'master.goods': FieldModel } }): Record<string, JsonSchema> {
  const goodsRef = line['master.goods'];
  const described = (name: string) => {
    const label = lines.fieldMap[name]?.label.en ?? name;
    return text(label.charAt(0).toLowerCase() + label.slice(1));
  };
  const copied = Object.keys(goodsRef.ref?.copy ?? {}).map((target) => [target, described(target)]);
  return { [goodsRef.name]: text('goods id'), ...Object.fromEntries(copied) };
}

const amounts = (fields: readonly FieldModel[]) => Object.fromEntries(fields.map((f) => [f.name, amount]));

function envelope(data: JsonSchema): JsonSchema {
  return { type: 'object', properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data, msg: { type: 'string' } } };
}

function get(tag: string, summary: string, parameters: JsonSchema[], data: JsonSchema): JsonSchema {
  return {
    get: {
      tags: [tag],
      summary,
      parameters,
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: envelope(data) } } },
        '400': { description: 'A missing or malformed parameter, or a warehouse of another project' },
        '401': { description: 'No valid token' },
        '403': { description: 'No view permission on the document type' },
        '404': { description: "The project or warehouse is not one of the caller's tenant" },
      },
    },
  };
}

const query = (name: string, description: string, required = true, pattern?: string): JsonSchema => ({
  name,
  in: 'query',
  required,
  description,
  schema: { type: 'string', ...(pattern ? { pattern } : {}) },
});
const MONTH = '^\\d{4}-(0[1-9]|1[0-2])$';
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

const projectParam = query('projectId', 'project id');

type Fields = ReturnType<typeof ledgerFields>;
const linesOf = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'array', items: { type: 'object', properties } });

export function ledgerPaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  const fields = ledgerFields(catalog);
  const paths: Record<string, JsonSchema> = {
    [`${fields.report.model.api}/generate`]: generatePath(fields.report),
    [`${fields.count.model.api}/book`]: bookPath(fields.count),
  };
  if (fields.turnoverMovement) paths[`${fields.turnoverMovement.model.api}/onSite`] = onSitePath(fields.turnoverMovement);
  if (fields.rentSettlement) paths[`${fields.rentSettlement.model.api}/rentLines`] = rentLinesPath(fields.rentSettlement);
  return paths;
}

function generatePath({ model }: Fields['report']): JsonSchema {
  return get(
    model.key,
    "A month's receipt/issue/stock report generated from the ledger: opening balance, approved receipts by source, stocktake gains/losses and the weighted average, one line per goods with stock or movements (consumption left at 0 to be entered)",
    [projectParam, query('warehouseId', 'warehouse; without it the whole project', false), query('period', 'month YYYY-MM', true, MONTH)],
    { $ref: `#/components/schemas/${model.key}` },
  );
}

function bookPath(count: Fields['count']): JsonSchema {
  const { model, line } = count;
  return get(
    model.key,
    'Book quantity, moving-average price and amount per goods at the end of a day (R-INV-2)',
    [projectParam, query('warehouseId', 'warehouse id'), query('date', 'YYYY-MM-DD', true, DATE)],
    linesOf({
      ...goodsProperties(count),
      [line.bookQuantity.name]: amount,
      [line.bookPrice.name]: { ...amount, type: ['number', 'string', 'null'] },
      [line.bookAmount.name]: amount,
    }),
  );
}

function onSitePath(movement: NonNullable<Fields['turnoverMovement']>): JsonSchema {
  const { model } = movement;
  return get(
    model.key,
    'Turnover items on site per goods at the end of a day: approved entries − approved exits (R-TURN-INV)',
    [projectParam, query('date', 'YYYY-MM-DD', true, DATE), query(CONTRACT_PARAM, 'only the items of one lease contract', false)],
    linesOf({ ...goodsProperties(movement), onSiteQty: amount }),
  );
}

function rentLinesPath(settlement: NonNullable<Fields['rentSettlement']>): JsonSchema {
  return get(
    settlement.model.key,
    "The lines of a lease settlement from the lease's approved entry and exit checks: each contract line with the period's opening, entered and exited quantities, quantity × days by the day rule (R-RENT-2) and the lost and damaged quantities of the period's exits (R-RENT-4); then goods moved without a contract line",
    [
      projectParam,
      query(CONTRACT_PARAM, "the lease contract's code"),
      query('startDate', 'first day of the period, YYYY-MM-DD', true, DATE),
      query('endDate', 'last day of the period, YYYY-MM-DD', true, DATE),
      query('rentDayRule', "both, head, tail or neither; the contract's by default", false),
    ],
    linesOf(rentLineProperties(settlement)),
  );
}

/** A lease settlement's line as rentLines answers it: the contract line it picks (x-detail.pickFrom), then the period's figures. */
function rentLineProperties(settlement: NonNullable<Fields['rentSettlement']>): Record<string, JsonSchema> {
  const { lines, line } = settlement;
  const goods = goodsProperties(settlement);
  const pick = lines.pickFrom[0];
  const pickedToo = Object.keys(pick?.map ?? {})
    .filter((target) => !(target in goods))
    .map((target) => [target, lines.fieldMap[target]?.kind === 'decimal' ? amount : text(target)]);
  return {
    ...goods,
    ...(pick ? { [pick.rowId]: text('the contract line (absent for goods without one)') } : {}),
    ...Object.fromEntries(pickedToo),
    ...amounts([
      line.dailyRate,
      line.openingQuantity,
      line.enteredQuantity,
      line.exitedQuantity,
      line.quantityDays,
      line.lostQuantity,
      line.damagedQuantity,
    ]),
  };
}
