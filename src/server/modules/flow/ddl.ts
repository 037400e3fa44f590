// The workflow tables (not documents, so not schemas; docs/workflows.md#storage-and-concurrency):
// model drafts, deployments and immutable versioned definitions, instances holding the
// interpreter's JSON state with a version column (optimistic concurrency), tasks as an indexed
// table (todo by assignee, claim by candidate user or group, done by who completed), and the
// activity history that feeds timelines and diagrams.
export const FLOW_DDL = `
CREATE TABLE IF NOT EXISTS wf_model (
  id bigint PRIMARY KEY, tenant_id varchar(12) NOT NULL, model_key varchar(100) NOT NULL, name varchar(200) NOT NULL,
  category varchar(100), description varchar(1000), xml text NOT NULL, version integer NOT NULL DEFAULT 1,
  create_user bigint, create_time timestamp(0) NOT NULL, update_user bigint, update_time timestamp(0) NOT NULL,
  is_deleted smallint NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX IF NOT EXISTS wf_model_key_uq ON wf_model (tenant_id, model_key) WHERE is_deleted = 0;
CREATE INDEX IF NOT EXISTS wf_model_list_idx ON wf_model (tenant_id, update_time DESC, id DESC) WHERE is_deleted = 0;

CREATE TABLE IF NOT EXISTS wf_deployment (
  id bigint PRIMARY KEY, tenant_id varchar(12) NOT NULL, name varchar(200) NOT NULL, category varchar(100),
  source varchar(16) NOT NULL, resource_hash varchar(64), deploy_user bigint, deploy_time timestamp(0) NOT NULL);

CREATE TABLE IF NOT EXISTS wf_definition (
  id varchar(160) PRIMARY KEY, tenant_id varchar(12) NOT NULL, deployment_id bigint NOT NULL,
  def_key varchar(100) NOT NULL, version integer NOT NULL, name varchar(200) NOT NULL, category varchar(100),
  description text, resource_name varchar(200) NOT NULL, xml text NOT NULL, suspended boolean NOT NULL DEFAULT false,
  deploy_time timestamp(0) NOT NULL, is_deleted smallint NOT NULL DEFAULT 0, UNIQUE (tenant_id, def_key, version));
CREATE INDEX IF NOT EXISTS wf_definition_list_idx ON wf_definition (tenant_id, def_key, version DESC) WHERE is_deleted = 0;
CREATE INDEX IF NOT EXISTS wf_definition_deployment_idx ON wf_definition (deployment_id);

CREATE TABLE IF NOT EXISTS wf_default_seed (
  tenant_id varchar(12) NOT NULL, def_key varchar(100) NOT NULL, resource_hash varchar(64) NOT NULL, PRIMARY KEY (tenant_id, def_key));

CREATE TABLE IF NOT EXISTS wf_instance (
  id bigint PRIMARY KEY, tenant_id varchar(12) NOT NULL, definition_id varchar(160) NOT NULL, def_key varchar(100) NOT NULL,
  business_key varchar(64), business_table varchar(64), business_id bigint, business_title varchar(300),
  initiator_id bigint NOT NULL, status varchar(12) NOT NULL, state jsonb NOT NULL, version integer NOT NULL DEFAULT 0,
  start_time timestamp(0) NOT NULL, end_time timestamp(0), end_activity_id varchar(100), delete_reason varchar(500));
CREATE INDEX IF NOT EXISTS wf_instance_send_idx ON wf_instance (tenant_id, initiator_id, id DESC);
CREATE INDEX IF NOT EXISTS wf_instance_follow_idx ON wf_instance (tenant_id, status, id DESC);
CREATE INDEX IF NOT EXISTS wf_instance_business_idx ON wf_instance (tenant_id, business_key, business_id, id DESC);
CREATE UNIQUE INDEX IF NOT EXISTS wf_instance_live_uq ON wf_instance (tenant_id, business_key, business_id) WHERE status = 'running';

CREATE TABLE IF NOT EXISTS wf_task (
  id bigint PRIMARY KEY, tenant_id varchar(12) NOT NULL, instance_id bigint NOT NULL, definition_id varchar(160) NOT NULL,
  activity_id varchar(100) NOT NULL, name varchar(200) NOT NULL, ref varchar(32) NOT NULL, form_key varchar(200),
  assignee_id bigint, candidate_users bigint[] NOT NULL DEFAULT '{}', candidate_groups varchar(100)[] NOT NULL DEFAULT '{}',
  status varchar(12) NOT NULL, create_time timestamp(0) NOT NULL, claim_time timestamp(0), end_time timestamp(0),
  completed_by bigint, outcome varchar(12), comment varchar(1000), variables jsonb);
CREATE INDEX IF NOT EXISTS wf_task_todo_idx ON wf_task (tenant_id, assignee_id, id DESC) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS wf_task_claim_groups_idx ON wf_task USING gin (candidate_groups) WHERE status = 'active' AND assignee_id IS NULL;
CREATE INDEX IF NOT EXISTS wf_task_claim_users_idx ON wf_task USING gin (candidate_users) WHERE status = 'active' AND assignee_id IS NULL;
CREATE INDEX IF NOT EXISTS wf_task_done_idx ON wf_task (tenant_id, completed_by, end_time DESC, id DESC) WHERE status = 'completed';
CREATE INDEX IF NOT EXISTS wf_task_instance_idx ON wf_task (instance_id, ref);

CREATE TABLE IF NOT EXISTS wf_history (
  id bigint PRIMARY KEY, tenant_id varchar(12) NOT NULL, instance_id bigint NOT NULL, activity_id varchar(100) NOT NULL,
  activity_type varchar(32) NOT NULL, activity_name varchar(200), task_id bigint, assignee_id bigint,
  start_time timestamp(0) NOT NULL, end_time timestamp(0));
CREATE INDEX IF NOT EXISTS wf_history_instance_idx ON wf_history (instance_id, id);
CREATE INDEX IF NOT EXISTS wf_history_task_idx ON wf_history (task_id) WHERE task_id IS NOT NULL;
`;
