// Admin dialogs load on first use: the registry is read by every list page, while each dialog (and
// the antd parts only it needs) stays in its own chunk until its button is pressed.
import { createElement, lazy, Suspense, type ComponentType } from 'react';
import { lazyWithTimeout } from '../app/lazy.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';

type DialogModule = { default: ComponentType<ActionDialogProps> };

export function lazyDialog(load: () => Promise<DialogModule>): ComponentType<ActionDialogProps> {
  const Dialog = lazy(lazyWithTimeout(load));
  return function LazyAdminDialog(props: ActionDialogProps) {
    return createElement(Suspense, { fallback: null }, createElement(Dialog, props));
  };
}
