// The extra actions of the resource screens (the generic list pages of oss, sms and attach):
// 启用 on a storage or SMS configuration (buttons oss_enable / sms_enable), 发送短信 (sms_send) and
// 上传 of attachments (attach_add), for the renderers' registry (app/CatalogGate.tsx); their dialogs
// (resource-dialogs.tsx) load on first use.
import { lazyDialog } from '../../admin/lazy-dialog.ts';
import type { EntityExtension } from '../../renderers/extensions.ts';

const EnableDialog = lazyDialog(() => import('./resource-dialogs.tsx').then((m) => ({ default: m.EnableDialog })));
const SendSmsDialog = lazyDialog(() => import('./resource-dialogs.tsx').then((m) => ({ default: m.SendSmsDialog })));
const UploadDialog = lazyDialog(() => import('./resource-dialogs.tsx').then((m) => ({ default: m.UploadDialog })));

export const RESOURCE_ACTIONS: Readonly<Record<string, EntityExtension>> = {
  oss: {
    rowActions: [{ key: 'enable', label: 'resource.enable', permission: 'oss_enable', dialog: EnableDialog }],
  },
  sms: {
    rowActions: [{ key: 'enable', label: 'resource.enable', permission: 'sms_enable', dialog: EnableDialog }],
    toolbarActions: [{ key: 'send', label: 'resource.sendSms', permission: 'sms_send', dialog: SendSmsDialog }],
  },
  attach: {
    toolbarActions: [{ key: 'upload', label: 'resource.upload', permission: 'attach_add', dialog: UploadDialog }],
  },
};
