import type { Meta, StoryObj } from '@storybook/react-vite';
import { CardBox, Tile } from './Tile.tsx';

const meta: Meta<typeof Tile> = { title: 'Shell/Tile', component: Tile };
export default meta;

export const Single: StoryObj<typeof Tile> = {
  args: { to: '/cost-master/project', title: '项目', subtitle: '基础资料', colour: '#409EFF' },
};

export const InACard: StoryObj<typeof Tile> = {
  render: () => (
    <CardBox radius={12} title="常用功能">
      <div className="zs-tiles">
        <Tile to="/cost-master/project" title="项目" subtitle="基础资料" colour="#409EFF" />
        <Tile to="/cost-material/materialTotalDemand" title="材料总需用计划" subtitle="材料管理" colour="#13a8a8" />
        <Tile to="/system/user" title="用户管理" subtitle="系统管理" colour="#e6a23c" />
      </div>
    </CardBox>
  ),
};
