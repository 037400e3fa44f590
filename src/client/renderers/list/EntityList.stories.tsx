// The generic list in its states: a document (材料总需用计划), a lazy tree (物资分类), loading, empty,
// error, a user without add/delete buttons, a read-only log, and a page of 200 rows (virtualised).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { fn } from 'storybook/test';
import type { EntityModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { allButtons, signInStoryUser, WithFakeApi } from '../displays/FakeApiStory.tsx';
import type { FakeHttp, FakeHttpOptions } from '../testing/fake-http.ts';
import { EntityList } from './EntityList.tsx';

const entities = catalog().entities;
const demand = entities.materialTotalDemand;
const classify = entities.goodsClassify;

/** Demands over several projects with amounts that differ, as a real list would show. */
function variedDemands(http: FakeHttp) {
  const projects = http.tables.get('project')!;
  http.tables.get('materialTotalDemand')!.forEach((row, i) => {
    row.projectId = projects[i % Math.min(5, projects.length)].id;
    row.totalAmount = Math.round((i * 7919 + 1234.5) * 137) / 100;
    row.title = `${['主体结构', '二次结构', '装饰装修', '安装工程'][i % 4]}材料计划 ${i + 1}`;
  });
}

interface Args {
  model: EntityModel;
  api?: FakeHttpOptions;
  buttons?: Record<string, boolean>;
}

function ListStory({ model, api }: Args) {
  return (
    <WithFakeApi options={api} prepare={variedDemands}>
      <EntityList model={model} onOpen={fn()} />
    </WithFakeApi>
  );
}

const meta: Meta<Args> = {
  title: 'Renderers/EntityList',
  render: (args) => <ListStory {...args} />,
  beforeEach: ({ args }) => signInStoryUser(args.buttons ?? allButtons(args.model)),
  parameters: { layout: 'padded' },
};
export default meta;

type Story = StoryObj<Args>;

export const MaterialTotalDemand: Story = { args: { model: demand, api: { rows: 36 } } };

export const LazyTree: Story = { args: { model: classify, api: { rows: 12 } } };

export const Loading: Story = { args: { model: demand, api: { hang: true } } };

export const Empty: Story = { args: { model: demand, api: { rows: 0 } } };

export const LoadError: Story = { name: 'Error', args: { model: demand, api: { failWith: '服务器开小差了' } } };

export const PermissionLimited: Story = { args: { model: demand, api: { rows: 12 }, buttons: {} } };

/** Records the server alone writes (the API log): view and export only, even for a user holding every button. */
export const ReadOnlyLog: Story = { args: { model: entities.logApi, api: { rows: 15 } } };

export const TwoHundredRows: Story = {
  args: { model: { ...demand, list: { ...demand.list, pageSize: 200 } }, api: { rows: 240 } },
};
