// The OpenAPI description of what the material ledger pre-fills (docs/business-rules.md#material-ledger): the
// monthly 收发存 report, a stocktake's book and the turnover items on site, at the API of the
// document type playing each role.
import { LEDGER_ROLES } from '../../engine/ledger/roles.ts';
import { optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, JsonSchema } from '../../../../engine/model/types.ts';

const amount: JsonSchema = { type: ['number', 'string'], description: 'exact decimal: a number, or a string beyond 15 digits' };
const text = (description: string): JsonSchema => ({ type: 'string', description });
const goods = {
  goodsId: text('goods id'),
  goodsCode: text('goods code'),
  goodsName: text('goods name'),
  spec: text('specification'),
  unit: text('unit'),
};

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

export function ledgerPaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  const report = optionalEntityWithRole(catalog, LEDGER_ROLES.report);
  const count = optionalEntityWithRole(catalog, LEDGER_ROLES.count);
  const turnover = optionalEntityWithRole(catalog, LEDGER_ROLES.turnoverMovement);
  const rent = optionalEntityWithRole(catalog, LEDGER_ROLES.rentSettlement);
  const paths: Record<string, JsonSchema> = {};
  const projectParam = query('projectId', 'project id');
  if (report) {
    paths[`${report.api}/generate`] = get(
      report.key,
      "A month's receipt/issue/stock report generated from the ledger: opening balance, approved receipts by source, stocktake gains/losses and the weighted average, one line per goods with stock or movements (consumption left at 0 to be entered)",
      [projectParam, query('warehouseId', 'warehouse; without it the whole project', false), query('period', 'month YYYY-MM', true, MONTH)],
      { $ref: `#/components/schemas/${report.key}` },
    );
  }
  if (count) {
    paths[`${count.api}/book`] = get(
      count.key,
      'Book quantity, moving-average price and amount per goods at the end of a day (R-INV-2)',
      [projectParam, query('warehouseId', 'warehouse id'), query('date', 'YYYY-MM-DD', true, DATE)],
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { ...goods, bookQty: amount, price: { ...amount, type: ['number', 'string', 'null'] }, bookAmount: amount },
        },
      },
    );
  }
  if (turnover) {
    paths[`${turnover.api}/onSite`] = get(
      turnover.key,
      'Turnover items on site per goods at the end of a day: approved entries − approved exits (R-TURN-INV)',
      [
        projectParam,
        query('date', 'YYYY-MM-DD', true, DATE),
        query('expenditureContractCode', 'only the items of one lease contract', false),
      ],
      { type: 'array', items: { type: 'object', properties: { ...goods, onSiteQty: amount } } },
    );
  }
  if (rent) {
    paths[`${rent.api}/rentLines`] = get(
      rent.key,
      "The lines of a lease settlement from the lease's approved entry and exit checks: each contract line with the period's opening, entered and exited quantities, quantity × days by the day rule (R-RENT-2) and the lost and damaged quantities of the period's exits (R-RENT-4); then goods moved without a contract line",
      [
        projectParam,
        query('expenditureContractCode', "the lease contract's code"),
        query('startDate', 'first day of the period, YYYY-MM-DD', true, DATE),
        query('endDate', 'last day of the period, YYYY-MM-DD', true, DATE),
        query('rentDayRule', "both, head, tail or neither; the contract's by default", false),
      ],
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            ...goods,
            contractDetailId: text('the contract line (absent for goods without one)'),
            dailyRate: amount,
            taxRate: amount,
            openingQty: amount,
            enteredQty: amount,
            exitedQty: amount,
            qtyDays: amount,
            lostQty: amount,
            damagedQty: amount,
          },
        },
      },
    );
  }
  return paths;
}
