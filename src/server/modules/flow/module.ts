// Approval workflows: definitions, the step runner, the work lists, and the lock on documents
// under approval.
import { documentWorkflowPaths, flowPaths, flowSchemas } from './openapi.ts';
import type { ServerModule } from '../module.ts';
import { FLOW_DDL } from './ddl.ts';
import { workflowLockHooks } from './documents.ts';
import { registerFlowRoutes } from './routes.ts';

export const flowModule: ServerModule = {
  name: 'flow',
  ddl: FLOW_DDL,
  besideDocuments: true,
  hooks: ({ ctx }) => workflowLockHooks(ctx.catalog),
  routes: (app, { ctx, flow }) => registerFlowRoutes(app, ctx, flow),
  // a document with a workflow: its submit starts the approval (replacing the generic description)
  openapi: (catalog) => ({
    paths: Object.assign({}, ...Object.values(catalog.entities).map(documentWorkflowPaths), flowPaths()),
    schemas: flowSchemas,
  }),
};
