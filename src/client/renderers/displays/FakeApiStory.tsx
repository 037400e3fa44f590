// Stories of the renderers: each story gets its own in-memory API (generated from the schemas,
// created once per story) and, through `grants`, the button permissions of the user it shows.
import { useState, type ReactNode } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { appStore, permissionAtom, userInfoAtom, type UserInfo } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { createFakeHttp, type FakeHttp, type FakeHttpOptions } from '../testing/fake-http.ts';
import { FakeApi } from './FakeApi.tsx';

/** Every standard button of an entity ({code}_add, _edit, _delete, _view, _export). */
export function allButtons(model: EntityModel): Record<string, boolean> {
  const code = model.menu?.code ?? model.key;
  return Object.fromEntries(['add', 'edit', 'delete', 'view', 'export'].map((a) => [`${code}_${a}`, true]));
}

/** Signs in a story user holding these buttons (call from a story's beforeEach). */
export function signInStoryUser(permissions: Record<string, boolean>): void {
  appStore.set(userInfoAtom, { user_id: 'story-user', account: 'story' } as UserInfo);
  appStore.set(permissionAtom, permissions);
}

export function WithFakeApi({
  options,
  prepare,
  children,
}: {
  options?: FakeHttpOptions;
  prepare?: (http: FakeHttp) => void;
  children: ReactNode;
}) {
  const [http] = useState(() => {
    const fake = createFakeHttp(catalog(), options);
    prepare?.(fake);
    return fake;
  });
  return <FakeApi http={http}>{children}</FakeApi>;
}
