// Approval steps as the seeded users take them, for server tests of documents with a workflow.
import { expect } from 'vitest';
import type { App } from '../../src/server/app.ts';
import type { Api } from './harness.ts';

const FLOW = '/api/blade-flow';

/** The data of a successful answer (fails the test with the whole answer otherwise). */
export function ok(res: { body: any }) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

/** A token of a user (by default a seeded one of the platform tenant), with the role aliases the workflow hands tasks by. */
export async function tokenOf(server: Pick<App, 'db' | 'tokens'>, account: string, tenantId = '000000'): Promise<string> {
  const [u] = await server.db.query<{ id: string; deptId: string; roleId: string; aliases: string }>(
    `SELECT u.id::text AS id, u.dept_id AS "deptId", u.role_id AS "roleId",
       (SELECT string_agg(r.role_alias, ',') FROM blade_role r WHERE r.id::text = ANY(string_to_array(u.role_id, ','))) AS aliases
       FROM blade_user u WHERE u.account = $1 AND u.tenant_id = $2`,
    [account, tenantId],
  );
  return server.tokens.sign({ tenant_id: tenantId, user_id: u.id, dept_id: u.deptId, role_id: u.roleId, role_name: u.aliases });
}

/** Submits a document (unless in approval already) and lets `approver` approve it (amounts under the cost manager's threshold). */
export async function approveAs(clerk: Api, approver: Api, base: string, id: string): Promise<void> {
  const current = ok(await clerk.get(`${base}/detail`, { id }));
  const submitted = current.approvalStatus === 'approving' ? current : ok(await clerk.post(`${base}/submit`, { id }));
  const [task] = ok(await approver.get(`${FLOW}/work/claim-list`, { size: '100' })).records.filter(
    (r: any) => r.processInstanceId === submitted.processInstanceId,
  );
  ok(await approver.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
  ok(await approver.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '同意' }));
  expect(ok(await clerk.get(`${base}/detail`, { id })).approvalStatus).toBe('approved');
}

/** The group of a subcontract's settlements: its project, contract code and counterparty. */
// a type alias, not an interface: it is passed as query parameters (Record<string, string>)
export type ContractKeys = {
  projectId: string;
  expenditureContractCode: string;
  subcontractorId: string;
};

/** A labour team and an approved fixed-unit-price subcontract with it on `projectId` (80 % payment, 3 % retention, 9 % VAT). */
export async function approvedSubcontract(
  clerk: Api,
  approver: Api,
  projectId: string,
  name: string,
  details: Record<string, unknown>[],
): Promise<{ keys: ContractKeys; contract: any }> {
  const team = ok(
    await clerk.post('/api/construct/subcontractor/save', {
      name: '南京恒通建筑劳务有限公司',
      subcontractorTypes: ['subcontract'],
      blacklisted: false,
      status: 'enabled',
    }),
  );
  const contract = ok(
    await clerk.post('/api/construct/expenditureContract/save', {
      name,
      projectId,
      subcontractorId: team.id,
      expenditureContractType: 'subcontract',
      pricingMode: 'fixed_unit_price',
      signDate: '2026-04-01',
      startDate: '2026-04-10',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      performanceStatus: 'performing',
      settlementStatus: 'none',
      details,
    }),
  );
  await approveAs(clerk, approver, '/api/construct/expenditureContract', contract.id);
  return { keys: { projectId, expenditureContractCode: contract.code, subcontractorId: team.id }, contract };
}

/**
 * Submits a document (unless in approval already) and has it approved by whichever of `approvers`
 * holds its next task, step after step (the project manager, then the cost manager when the amount asks).
 */
export async function approveByTurns(clerk: Api, approvers: Api[], base: string, id: string): Promise<any> {
  const current = ok(await clerk.get(`${base}/detail`, { id }));
  const submitted = current.approvalStatus === 'approving' ? current : ok(await clerk.post(`${base}/submit`, { id }));
  for (let step = 0; step < 4 && ok(await clerk.get(`${base}/detail`, { id })).approvalStatus === 'approving'; step++) {
    for (const api of approvers) {
      const [task] = ok(await api.get(`${FLOW}/work/claim-list`, { size: '100' })).records.filter(
        (r: any) => r.processInstanceId === submitted.processInstanceId,
      );
      if (!task) continue;
      ok(await api.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
      ok(await api.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '同意' }));
      break;
    }
  }
  const done = ok(await clerk.get(`${base}/detail`, { id }));
  expect(done.approvalStatus).toBe('approved');
  return done;
}

/** The suites' earthwork line of a subcontract: 1,000 m³ at 30 (9 % VAT). */
export const EARTHWORK_LINE = { itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 30, taxRate: 9 };

/** A month's interim settlement of that earthwork: 9 % VAT, 80 % payable, 3 % retention; `extra` adds header values. */
export function earthworkSettlement(keys: ContractKeys, period: string, qty: number, extra: Record<string, unknown> = {}) {
  return {
    ...keys,
    period,
    settlementType: 'interim',
    startDate: `${period}-01`,
    endDate: `${period}-28`,
    taxRate: 9,
    paymentRatio: 80,
    retentionRate: 3,
    reporterName: '王会计',
    ...extra,
    details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', contractQty: 1000, thisQty: qty, thisPrice: 30, taxRate: 9 }],
  };
}
