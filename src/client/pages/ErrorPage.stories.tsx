import type { Meta, StoryObj } from '@storybook/react-vite';
import { ErrorPage } from './ErrorPage.tsx';

const meta: Meta<typeof ErrorPage> = { title: 'Pages/ErrorPage', component: ErrorPage };
export default meta;

export const Forbidden: StoryObj<typeof ErrorPage> = { args: { status: 403 } };
export const NotFound: StoryObj<typeof ErrorPage> = { args: { status: 404 } };
export const ServerError: StoryObj<typeof ErrorPage> = { args: { status: 500 } };
