// The cost dashboards against an in-memory statistics API: the home page's overview (two projects,
// one over its target cost), its loading, empty and failing states, and the project statistics page.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { FakeMessageApi } from '../../../../client/shell/notifications/testing.tsx';
import { CostOverview } from './CostOverview.tsx';
import ProjectStatistics from './ProjectStatistics.tsx';
import { createFakeStatistics, sampleStatistics, type FakeStatisticsOptions } from './testing.ts';

function Dashboard({ page, options }: { page: 'home' | 'statistics'; options: FakeStatisticsOptions }) {
  const http = useMemo(() => createFakeStatistics(options), [options]);
  return <FakeMessageApi http={http}>{page === 'home' ? <CostOverview /> : <ProjectStatistics />}</FakeMessageApi>;
}

const meta: Meta<typeof Dashboard> = { title: 'Cost/Dashboards', component: Dashboard };
export default meta;
type Story = StoryObj<typeof Dashboard>;

export const HomeOverview: Story = { args: { page: 'home', options: {} } };
export const HomeLoading: Story = { args: { page: 'home', options: { pending: true } } };
export const HomeNoProjects: Story = { args: { page: 'home', options: { statistics: { ...sampleStatistics(), projects: [] } } } };
export const HomeFailing: Story = {
  args: { page: 'home', options: { fail: { status: 500, message: '服务器异常,请将错误编号 42 告知管理员' } } },
};
export const ProjectStatisticsPage: Story = { args: { page: 'statistics', options: {} } };
export const ProjectStatisticsWithoutIncome: Story = {
  args: { page: 'statistics', options: { statistics: { ...sampleStatistics(), income: null } } },
};
