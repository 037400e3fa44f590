import { describe, expect, it } from 'vitest';
import { guard } from './guard.ts';

const base = { path: '/wel/index', meta: {}, loggedIn: true, token: 't', locked: false };

describe('navigation guard', () => {
  it('sends a locked session to the lock page after 100 ms', () => {
    expect(guard({ ...base, locked: true })).toEqual({ kind: 'redirect', to: '/lock', delayMs: 100 });
    expect(guard({ ...base, locked: true, path: '/lock', meta: { isTab: false } })).toEqual({ kind: 'allow', addTab: false });
  });
  it('sends /login to / when logged in', () => {
    expect(guard({ ...base, path: '/login', meta: { isAuth: false } })).toEqual({ kind: 'redirect', to: '/' });
  });
  it('logs out and goes to /login when the token is gone', () => {
    expect(guard({ ...base, token: '' })).toEqual({ kind: 'redirect', to: '/login', logout: true });
  });
  it('sends anonymous visitors to /login unless the route needs no login', () => {
    expect(guard({ ...base, loggedIn: false, token: '' })).toEqual({ kind: 'redirect', to: '/login' });
    expect(guard({ ...base, loggedIn: false, token: '', path: '/404', meta: { isAuth: false } })).toEqual({ kind: 'allow', addTab: false });
  });
  it('sends a user who must change the initial password to the change, and nowhere else', () => {
    const forced = { ...base, mustChangePassword: true };
    expect(guard(forced)).toEqual({ kind: 'redirect', to: '/password' });
    expect(guard({ ...forced, path: '/system/user' })).toEqual({ kind: 'redirect', to: '/password' });
    expect(guard({ ...forced, path: '/password', meta: { isTab: false } })).toEqual({ kind: 'allow', addTab: false });
    // once changed (or never needed) the page is left for home
    expect(guard({ ...base, path: '/password', meta: { isTab: false } })).toEqual({ kind: 'redirect', to: '/' });
  });
  it('makes each visited route a tab unless marked non-tab', () => {
    expect(guard(base)).toEqual({ kind: 'allow', addTab: true });
    expect(guard({ ...base, meta: { isTab: false } })).toEqual({ kind: 'allow', addTab: false });
  });
});
