// The five themes of the header's picker: each changes antd's tokens and the shell's colours.
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { ThemeName } from './website.ts';

export interface ShellColours {
  header: string;
  headerText: string;
  sider: string;
  siderMenu: 'dark' | 'light';
  logo: string;
  watermark: string;
}

export const shellColours: Record<ThemeName, ShellColours> = {
  default: {
    header: '#ffffff',
    headerText: '#303133',
    sider: '#20222a',
    siderMenu: 'dark',
    logo: '#409EFF',
    watermark: 'rgba(0, 0, 0, 0.08)',
  },
  smart: {
    header: '#0f3d56',
    headerText: '#e6f4ff',
    sider: '#0b2e41',
    siderMenu: 'dark',
    logo: '#36cfc9',
    watermark: 'rgba(0, 0, 0, 0.08)',
  },
  'black-gold': {
    header: '#141414',
    headerText: '#d4af37',
    sider: '#000000',
    siderMenu: 'dark',
    logo: '#d4af37',
    watermark: 'rgba(255, 255, 255, 0.08)',
  },
  'blue-white': {
    header: '#1f5fbf',
    headerText: '#ffffff',
    sider: '#ffffff',
    siderMenu: 'light',
    logo: '#1f5fbf',
    watermark: 'rgba(0, 0, 0, 0.08)',
  },
  white: {
    header: '#ffffff',
    headerText: '#303133',
    sider: '#ffffff',
    siderMenu: 'light',
    logo: '#409EFF',
    watermark: 'rgba(0, 0, 0, 0.08)',
  },
};

export function antdThemeFor(name: ThemeName): ThemeConfig {
  switch (name) {
    case 'smart':
      return { token: { colorPrimary: '#13a8a8', colorLink: '#13a8a8', borderRadius: 6 } };
    case 'black-gold':
      return { algorithm: antdTheme.darkAlgorithm, token: { colorPrimary: '#d4af37', colorLink: '#d4af37', borderRadius: 4 } };
    case 'blue-white':
      return { token: { colorPrimary: '#1f5fbf', colorLink: '#1f5fbf', borderRadius: 4 } };
    case 'white':
      return { token: { colorPrimary: '#409EFF', colorLink: '#409EFF', borderRadius: 8 } };
    default:
      return { token: { colorPrimary: '#409EFF', colorLink: '#409EFF', borderRadius: 4 } };
  }
}
