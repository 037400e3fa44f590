// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { getEntry, getStore, removeStore, setStore, tokenStore } from './storage.ts';

describe('local storage format', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('keeps {type, content, datetime} under the key prefix, persistent or per session', () => {
    setStore('theme', 'white');
    setStore('permission', { user_add: true }, true);
    const raw = JSON.parse(localStorage.getItem('zhusuan-theme')!);
    expect(raw).toMatchObject({ type: 'string', content: 'white' });
    expect(typeof raw.datetime).toBe('number');
    expect(JSON.parse(sessionStorage.getItem('zhusuan-permission')!).type).toBe('object');
    expect(localStorage.getItem('zhusuan-permission')).toBeNull();
    expect(getStore('permission')).toEqual({ user_add: true });
    expect(getEntry('theme')?.content).toBe('white');
    removeStore('theme');
    expect(getStore('theme')).toBeUndefined();
  });

  it('keeps the access and the refresh token in separate cookies', () => {
    tokenStore.set('access.jwt', 'refresh-token');
    expect(document.cookie).toContain('zhusuan-access-token=access.jwt');
    expect(document.cookie).toContain('zhusuan-refresh-token=refresh-token');
    expect(tokenStore.access).toBe('access.jwt');
    expect(tokenStore.refresh).toBe('refresh-token');
    expect(tokenStore.obtainedAt).toBeGreaterThan(0);
    tokenStore.clear();
    expect(tokenStore.access).toBe('');
    expect(tokenStore.refresh).toBe('');
  });
});
