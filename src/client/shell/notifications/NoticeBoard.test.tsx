// @vitest-environment happy-dom
// The home page's notices: category, title and publish date of each, the whole notice on a click,
// and an empty state.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NoticeBoard } from './NoticeBoard.tsx';
import { createFakeMessageServer, MessageTestProviders } from './testing.tsx';

afterEach(cleanup);

const notices = [
  {
    id: '1',
    title: '关于做好年度成本结算工作的通知',
    category: '6',
    releaseTime: '2026-01-10',
    content: '请各项目于本月底前完成结算录入。',
  },
  { id: '2', title: '筑算成本管控平台上线运行', category: '1', releaseTime: '2026-01-05', content: '自即日起上线运行。' },
];

describe('the notice board', () => {
  it('lists the published notices with their category and date; a click shows the whole notice', async () => {
    const server = createFakeMessageServer({ notices });
    render(
      <MessageTestProviders http={server}>
        <NoticeBoard />
      </MessageTestProviders>,
    );
    expect(await screen.findByText('关于做好年度成本结算工作的通知')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('事务通知')).toBeTruthy());
    expect(screen.getByText('2026-01-05')).toBeTruthy();
    expect(server.calls).toContainEqual({ method: 'GET', url: '/api/blade-desk/notice/top', params: { size: 5 } });
    fireEvent.click(screen.getByText('筑算成本管控平台上线运行'));
    expect(await screen.findByText('自即日起上线运行。')).toBeTruthy();
    expect(screen.getByText('发布日期 2026-01-05')).toBeTruthy();
  });

  it('says so when there is none, in English too', async () => {
    render(
      <MessageTestProviders http={createFakeMessageServer({ notices: [] })} lang="en">
        <NoticeBoard />
      </MessageTestProviders>,
    );
    expect(await screen.findByText('No notices')).toBeTruthy();
    expect(screen.getByText('Notices')).toBeTruthy();
  });
});
