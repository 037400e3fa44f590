import type { Meta, StoryObj } from '@storybook/react-vite';
import { adminFake } from '../admin/testing/fixtures.ts';
import { withFakeApi } from '../admin/testing/story.tsx';
import { DictHorizontal, DictVertical } from './DictPages.tsx';

const ALL = ['dict_add', 'dict_edit', 'dict_delete'];

const meta: Meta<typeof DictHorizontal> = {
  title: 'Pages/Dictionaries',
  component: DictHorizontal,
  decorators: [withFakeApi(() => adminFake(), ALL)],
};
export default meta;
type Story = StoryObj<typeof DictHorizontal>;

/** /dict-horizontal/index: dictionaries beside their entries (click a dictionary). */
export const Horizontal: Story = {};
/** /dict-vertical/index: dictionaries above their entries. */
export const Vertical: Story = { render: () => <DictVertical /> };
/** A reader: no add, edit or delete buttons. */
export const ReadOnly: Story = { decorators: [withFakeApi(() => adminFake(), [])] };
export const Loading: Story = { decorators: [withFakeApi(() => adminFake({ hang: true }), ALL)] };
