// An in-memory message server for the component tests and stories of the bell, the drawer and the
// notices: it answers the message routes (inbox, sent, detail marking read, read-all, remove,
// save), the dictionaries, the recipient pickers and the notices; failures can be switched on per
// call, and a live subscription can be driven by hand.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider } from 'jotai';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../../api/http.ts';
import type { LiveHandlers } from '../../api/live.ts';
import { provideMessages } from '../../i18n/intl.ts';
import { en } from '../../i18n/messages.en.ts';
import { TextsProvider } from '../../i18n/TextsProvider.tsx';
import { HttpProvider, type RendererHttp } from '../../renderers/http-context.tsx';
import { appStore, langAtom, permissionAtom } from '../../state/session.ts';
import { MESSAGE_BASE, type MessageRecord, type Notice } from './api.ts';
import type { Subscribe } from './useLiveMessages.ts';

type Params = Record<string, string | number | boolean | undefined | null> | undefined;

const DICTIONARIES: Record<string, Record<'zh' | 'en', [string, string][]>> = {
  message_type: {
    zh: [
      ['1', '普通消息'],
      ['2', '部门广播'],
      ['3', '审批消息'],
      ['4', '角色广播'],
    ],
    en: [
      ['1', 'Ordinary'],
      ['2', 'Department broadcast'],
      ['3', 'Approval'],
      ['4', 'Role broadcast'],
    ],
  },
  notice: {
    zh: [
      ['1', '发布通知'],
      ['6', '事务通知'],
    ],
    en: [
      ['1', 'Announcement'],
      ['6', 'Affairs notice'],
    ],
  },
};

const SENDERS = ['管理员', '赵敏', '系统'];
const TITLES = ['钢筋进场验收提醒', '材料总计划待审批', '周报提交提醒', '安全检查通知', '合同交底会议', '月度结算录入提醒'];

export function sampleMessages(count: number, unread = count): MessageRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const n = count - i;
    const sender = SENDERS[i % SENDERS.length];
    return {
      id: String(5000 + n),
      title: `${TITLES[i % TITLES.length]} ${n}`,
      content: `第 ${n} 条消息的内容:请按时处理。`,
      type: sender === '系统' ? '3' : String(1 + (i % 2)),
      createUser: sender === '系统' ? '0' : '1001',
      createUserName: sender,
      createTime: `2026-11-${String(1 + (n % 28)).padStart(2, '0')} 09:${String(n % 60).padStart(2, '0')}:00`,
      isRead: i < unread ? 1 : 0,
    };
  });
}

export interface FakeMessageServerOptions {
  inbox?: MessageRecord[];
  sent?: MessageRecord[];
  notices?: Notice[];
  /** Fail these calls with the server's message. */
  fail?: { readAll?: string; remove?: string; topList?: string; save?: string };
  lang?: () => 'zh' | 'en';
  /** Shows a failure as the real HTTP client does (stories: a toast). */
  showError?: (message: string) => void;
}

export interface FakeMessageServer extends RendererHttp {
  inbox: MessageRecord[];
  sent: MessageRecord[];
  calls: { method: string; url: string; params?: Params; body?: unknown }[];
  /** What the real HTTP client would have shown as an error toast. */
  shownErrors: string[];
}

function page<T>(rows: T[], params: Params) {
  const size = Number(params?.size ?? 10);
  const current = Number(params?.current ?? 1);
  return {
    records: rows.slice((current - 1) * size, current * size),
    total: rows.length,
    size,
    current,
    pages: Math.ceil(rows.length / size),
  };
}

export function createFakeMessageServer(options: FakeMessageServerOptions = {}): FakeMessageServer {
  const lang = options.lang ?? (() => appStore.get(langAtom));
  const server: FakeMessageServer = {
    inbox: options.inbox ?? sampleMessages(12, 3),
    sent: options.sent ?? [],
    calls: [],
    shownErrors: [],
    async get<T>(url: string, params?: Params): Promise<T> {
      server.calls.push({ method: 'GET', url, params });
      return answer(url, params) as T;
    },
    async post<T>(url: string, body?: unknown, callOptions?: { searchParams?: Params }): Promise<T> {
      server.calls.push({ method: 'POST', url, params: callOptions?.searchParams, body });
      return answerPost(url, body, callOptions?.searchParams) as T;
    },
    async blob() {
      throw new Error('no downloads here');
    },
  };
  const failWith = (message: string) => {
    server.shownErrors.push(message);
    options.showError?.(message);
    throw new ApiError(400, message, { code: 400, success: false, msg: message });
  };

  function answer(url: string, params: Params): unknown {
    const titleFilter = (rows: MessageRecord[]) => (params?.title ? rows.filter((r) => r.title.includes(String(params.title))) : rows);
    switch (url) {
      case `${MESSAGE_BASE}/my/topList`:
        if (options.fail?.topList) failWith(options.fail.topList);
        return { messageList: server.inbox.slice(0, 5), unReadCount: server.inbox.filter((m) => m.isRead === 1).length };
      case `${MESSAGE_BASE}/my/list`:
        return page(
          titleFilter(server.inbox).filter((m) => params?.isRead === undefined || m.isRead === Number(params.isRead)),
          params,
        );
      case `${MESSAGE_BASE}/my/sendList`:
        return page(titleFilter(server.sent), params);
      case `${MESSAGE_BASE}/detail`: {
        const found = [...server.inbox, ...server.sent].find((m) => m.id === params?.id);
        if (!found) failWith('消息管理不存在');
        if (found!.isRead === 1) Object.assign(found!, { isRead: 0, readTime: '2026-11-22 10:00:00' });
        return { ...found };
      }
      case '/api/blade-system/dict/dictionary':
        return (DICTIONARIES[String(params?.code)]?.[lang()] ?? []).map(([dictKey, dictValue]) => ({ dictKey, dictValue }));
      case '/api/blade-system/user/options':
        return page(
          [
            { value: '2001', label: '王晓明' },
            { value: '2002', label: '赵敏' },
            { value: '2003', label: '李建国' },
          ].filter((u) => !params?.keyword || u.label.includes(String(params.keyword))),
          { size: 20 },
        );
      case '/api/blade-system/dept/tree':
        return [
          {
            id: '3001',
            title: '筑算建设集团',
            key: '3001',
            value: '3001',
            children: [{ id: '3002', title: '第一工程公司', key: '3002', value: '3002' }],
          },
        ];
      case '/api/blade-system/role/tree':
        return [{ id: '4001', title: '成本经理', key: '4001', value: '4001' }];
      case '/api/blade-desk/notice/top':
        return page(options.notices ?? [], params);
      default:
        throw new ApiError(404, `404 ${url}`, null);
    }
  }

  function answerPost(url: string, body: unknown, params: Params): unknown {
    switch (url) {
      case `${MESSAGE_BASE}/readAll`:
        if (options.fail?.readAll) failWith(options.fail.readAll);
        server.inbox.forEach((m) => (m.isRead = 0));
        return { count: server.inbox.length };
      case `${MESSAGE_BASE}/remove`: {
        if (options.fail?.remove) failWith(options.fail.remove);
        const ids = String(params?.ids ?? '').split(',');
        server.inbox = server.inbox.filter((m) => !ids.includes(m.id));
        server.sent = server.sent.filter((m) => !ids.includes(m.id));
        return null;
      }
      case `${MESSAGE_BASE}/save`: {
        if (options.fail?.save) failWith(options.fail.save);
        const record = {
          ...(body as MessageRecord),
          id: String(9000 + server.sent.length),
          createTime: '2026-11-22 10:00:00',
          createUserName: '管理员',
          receiverCount: 3,
          readCount: 0,
        };
        server.sent.unshift(record);
        return record;
      }
      default:
        throw new ApiError(404, `404 ${url}`, null);
    }
  }
  return server;
}

/** A live subscription the test drives: `emit` hands the bell an event as the server would. */
export function manualLive() {
  const handlers: LiveHandlers[] = [];
  let closed = 0;
  const subscribe: Subscribe = (h) => {
    handlers.push(h);
    return { close: () => void closed++ };
  };
  return {
    subscribe,
    emit: (name: string, data: unknown = {}) => handlers.forEach((h) => h.onEvent(name, data)),
    get open() {
      return handlers.length - closed;
    },
  };
}

provideMessages('en', en);

/** The providers the shell gives the bell: jotai, the client's texts, antd (zh or en) with App, a fresh query cache, the fake API. */
export function MessageTestProviders({
  http,
  lang = 'zh',
  permissions = {},
  children,
}: {
  http: RendererHttp;
  lang?: 'zh' | 'en';
  permissions?: Record<string, boolean>;
  children: ReactNode;
}) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  appStore.set(langAtom, lang);
  appStore.set(permissionAtom, permissions);
  return (
    <JotaiProvider store={appStore}>
      <TextsProvider>
        <ConfigProvider locale={lang === 'en' ? enUS : zhCN}>
          <AntApp>
            <QueryClientProvider client={queryClient}>
              <HttpProvider value={http}>{children}</HttpProvider>
            </QueryClientProvider>
          </AntApp>
        </ConfigProvider>
      </TextsProvider>
    </JotaiProvider>
  );
}

/** Stories: a fresh query cache and the fake API (Storybook's preview supplies jotai and antd). */
export function FakeMessageApi({ http, children }: { http: RendererHttp; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <HttpProvider value={http}>{children}</HttpProvider>
    </QueryClientProvider>
  );
}
