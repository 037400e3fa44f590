// The calls of the bell, the drawer, the send form and the notices (docs/messages-and-files.md),
// through the renderers' HTTP context so that tests and stories can hand in a fake server.
import type { RendererHttp } from '../../renderers/http-context.tsx';

export const MESSAGE_BASE = '/api/blade-message/message';
/** Every message query starts with this key: one invalidation refreshes the bell and the drawer. */
export const MESSAGES_KEY = ['messages'] as const;
/** The dictionary naming the message types (the drawer's and a message's type column, the send form). */
export const MESSAGE_TYPE_DICT = { code: 'message_type', source: 'system', multiple: false } as const;

/** Who sent a message: the system's name for messages the server sent itself (createUser 0). */
export function senderName(message: { createUser?: string; createUserName?: string }, system: string): string {
  return message.createUser === '0' ? system : message.createUserName || '';
}

export interface MessageRecord {
  id: string;
  title: string;
  content: string;
  type: string;
  createTime: string;
  createUser?: string;
  createUserName?: string;
  path?: string | null;
  /** 1 unread, 0 read (received messages). */
  isRead?: number;
  readTime?: string | null;
  receiverCount?: number;
  readCount?: number;
}

export interface TopList {
  messageList: MessageRecord[];
  unReadCount: number;
}

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

export interface TreeOption {
  id: string;
  title: string;
  value: string;
  key: string;
  children?: TreeOption[];
}

export interface Notice {
  id: string;
  title: string;
  category: string;
  releaseTime: string;
  content: string;
}

export type ListQuery = Record<string, string | number | undefined>;

export function messageApi(http: RendererHttp) {
  return {
    topList: () => http.get<TopList>(`${MESSAGE_BASE}/my/topList`),
    inbox: (query: ListQuery) => http.get<Page<MessageRecord>>(`${MESSAGE_BASE}/my/list`, query),
    sent: (query: ListQuery) => http.get<Page<MessageRecord>>(`${MESSAGE_BASE}/my/sendList`, query),
    /** Opening a received message marks it read. */
    open: (id: string) => http.get<MessageRecord>(`${MESSAGE_BASE}/detail`, { id }),
    // a failure of these is shown by the HTTP client: the server's message
    remove: (ids: readonly string[]) => http.post(`${MESSAGE_BASE}/remove`, undefined, { searchParams: { ids: ids.join(',') } }),
    readAll: () => http.post<{ count: number }>(`${MESSAGE_BASE}/readAll`),
    send: (record: Record<string, unknown>) => http.post<MessageRecord>(`${MESSAGE_BASE}/save`, record),
    users: (keyword: string) => http.get<Page<{ value: string; label: string }>>('/api/blade-system/user/options', { keyword, size: 20 }),
    depts: () => http.get<TreeOption[]>('/api/blade-system/dept/tree'),
    roles: () => http.get<TreeOption[]>('/api/blade-system/role/tree'),
    notices: (size: number) => http.get<Page<Notice>>('/api/blade-desk/notice/top', { size }),
  };
}

export type MessageApi = ReturnType<typeof messageApi>;
