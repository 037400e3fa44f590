// The texts of the bell, the message drawer, the send form and the home page's notices, in both
// languages (kept beside the components; the shell's catalog is src/client/i18n/messages.ts).
import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { langAtom } from '../../state/session.ts';

export const zh = {
  'bell.title': '消息通知',
  'bell.unread': '{count} 条未读',
  'bell.empty': '暂无消息',
  'bell.viewAll': '查看全部消息',
  'bell.readAll': '全部已读',
  'drawer.title': '我的消息',
  'drawer.inbox': '收到的消息',
  'drawer.sent': '发出的消息',
  'drawer.send': '发送消息',
  'drawer.readAll': '全部已读',
  'drawer.delete': '删除',
  'drawer.search': '搜索标题',
  'drawer.onlyUnread': '只看未读',
  'column.title': '标题',
  'column.type': '类型',
  'column.sender': '发送人',
  'column.time': '时间',
  'column.status': '状态',
  'column.receivers': '已读 / 接收人',
  'column.actions': '操作',
  'status.unread': '未读',
  'status.read': '已读',
  'message.system': '系统',
  'message.open': '打开链接',
  'message.view': '查看',
  'message.new': '新消息',
  'message.from': '来自 {name}',
  'confirm.delete': '确定将选择数据删除?',
  'confirm.readAll': '确定将全部消息标记为已读?',
  'toast.deleted': '删除成功',
  'toast.readAll': '操作成功',
  'toast.sent': '发送成功',
  'toast.selectOne': '请选择至少一条数据',
  'send.title': '发送消息',
  'send.type': '消息类型',
  'send.users': '接收人',
  'send.depts': '接收部门',
  'send.roles': '接收角色',
  'send.subject': '消息标题',
  'send.content': '消息内容',
  'send.submit': '发送',
  'send.cancel': '取消',
  'send.required': '请输入{field}',
  'send.choose': '请选择{field}',
  'send.search': '输入姓名搜索',
  'notice.title': '通知公告',
  'notice.empty': '暂无通知',
  'notice.published': '发布日期 {date}',
  'common.ok': '确定',
  'common.cancel': '取消',
  'common.close': '关闭',
  'common.total': '共 {total} 条',
} as const;

export type TextKey = keyof typeof zh;

export const en: Record<TextKey, string> = {
  'bell.title': 'Notifications',
  'bell.unread': '{count} unread',
  'bell.empty': 'No messages',
  'bell.viewAll': 'View all messages',
  'bell.readAll': 'Mark all read',
  'drawer.title': 'My messages',
  'drawer.inbox': 'Received',
  'drawer.sent': 'Sent',
  'drawer.send': 'Send message',
  'drawer.readAll': 'Mark all read',
  'drawer.delete': 'Delete',
  'drawer.search': 'Search titles',
  'drawer.onlyUnread': 'Unread only',
  'column.title': 'Title',
  'column.type': 'Type',
  'column.sender': 'From',
  'column.time': 'Time',
  'column.status': 'Status',
  'column.receivers': 'Read / recipients',
  'column.actions': 'Actions',
  'status.unread': 'Unread',
  'status.read': 'Read',
  'message.system': 'System',
  'message.open': 'Open link',
  'message.view': 'View',
  'message.new': 'New message',
  'message.from': 'From {name}',
  'confirm.delete': 'Delete the selected records?',
  'confirm.readAll': 'Mark every message read?',
  'toast.deleted': 'Deleted',
  'toast.readAll': 'operation successful',
  'toast.sent': 'Sent',
  'toast.selectOne': 'please select at least one record',
  'send.title': 'Send a message',
  'send.type': 'Message type',
  'send.users': 'Recipients',
  'send.depts': 'Departments',
  'send.roles': 'Roles',
  'send.subject': 'Title',
  'send.content': 'Content',
  'send.submit': 'Send',
  'send.cancel': 'Cancel',
  'send.required': 'please enter {field}',
  'send.choose': 'please select {field}',
  'send.search': 'Type a name to search',
  'notice.title': 'Notices',
  'notice.empty': 'No notices',
  'notice.published': 'Published {date}',
  'common.ok': 'OK',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.total': '{total} in total',
};

export const texts = { zh, en };

export function translateText(lang: 'zh' | 'en', key: TextKey, values: Record<string, string | number> = {}): string {
  return texts[lang][key].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? `{${k}}`));
}

/** The texts in the current language. */
export function useTexts() {
  const lang = useAtomValue(langAtom);
  return useCallback((key: TextKey, values?: Record<string, string | number>) => translateText(lang, key, values), [lang]);
}
