// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { breakpoint } from '../app/website.ts';
import { avatarProblem } from '../pages/Profile.tsx';
import type { MenuNode, Tab } from '../state/session.ts';
import { searchMenus } from './MenuSearch.tsx';
import { isExternal, visibleFor } from './Sidebar.tsx';
import { closeAll, closeOthers, closeTab } from './tabs.ts';

const home: Tab = { label: 'home', value: '/wel/index', close: false };
const tab = (value: string): Tab => ({ label: value, value, close: true });

describe('tabs', () => {
  it('closing the current tab opens its neighbour', () => {
    const tabs = [home, tab('/a'), tab('/b'), tab('/c')];
    expect(closeTab(tabs, '/b', '/b')).toEqual({ tabs: [home, tab('/a'), tab('/c')], goTo: '/c' });
    expect(closeTab(tabs, '/c', '/c').goTo).toBe('/b');
    expect(closeTab(tabs, '/a', '/c')).toEqual({ tabs: [home, tab('/b'), tab('/c')] });
  });
  it('never closes the only tab or the home tab', () => {
    expect(closeTab([tab('/a')], '/a', '/a').tabs).toHaveLength(1);
    expect(closeTab([home, tab('/a')], '/wel/index', '/a').tabs).toHaveLength(2);
  });
  it('close others keeps home and the current tab; close all keeps home', () => {
    const tabs = [home, tab('/a'), tab('/b')];
    expect(closeOthers(tabs, '/b').tabs).toEqual([home, tab('/b')]);
    expect(closeAll(tabs, '/wel/index')).toEqual({ tabs: [home], goTo: '/wel/index' });
  });
});

const menu = (name: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  id: name,
  parentId: '0',
  code: name,
  name,
  path: `/${name}`,
  sort: 0,
  category: 1,
  ...extra,
});

describe('menus', () => {
  it('search matches names by prefix, ignoring case', () => {
    const menus = [menu('Project', { nameEn: 'Project' }), menu('项目', {}), menu('ProjectX'), menu('My project')];
    expect(searchMenus(menus, 'pro', 'en').map((m) => m.name)).toEqual(['Project', 'ProjectX']);
    expect(searchMenus(menus, '项', 'zh').map((m) => m.name)).toEqual(['项目']);
    expect(searchMenus(menus, '  ', 'zh')).toEqual([]);
  });
  it('items with meta roles show only to those roles; none set shows to all', () => {
    expect(visibleFor(menu('a'), ['clerk'])).toBe(true);
    expect(visibleFor(menu('a', { meta: { roles: ['admin'] } }), ['clerk'])).toBe(false);
    expect(visibleFor(menu('a', { meta: { roles: ['admin', 'clerk'] } }), ['clerk'])).toBe(true);
  });
  it('recognises external menu paths', () => {
    expect(isExternal(menu('a', { path: 'https://report.example.cn' }))).toBe(true);
    expect(isExternal(menu('a'))).toBe(false);
  });
});

describe('constants', () => {
  it('breakpoints: ≥1200 is 3, ≥992 is 2, ≥768 is 1, else 0', () => {
    expect([1200, 1199, 992, 991, 768, 767].map(breakpoint)).toEqual([3, 2, 2, 1, 1, 0]);
  });
  it('avatars: jpg or png, at most 500 kb', () => {
    expect(avatarProblem({ type: 'image/png', size: 500 * 1024 })).toBeNull();
    expect(avatarProblem({ type: 'image/gif', size: 10 })).toBe('info.avatarType');
    expect(avatarProblem({ type: 'image/jpeg', size: 500 * 1024 + 1 })).toBe('info.avatarSize');
  });
});
