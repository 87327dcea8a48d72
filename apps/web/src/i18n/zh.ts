import type { Messages } from './en.ts';

/** 简体中文界面文字。 */
export const zh: Messages = {
  app: {
    name: 'PageLens',
    tagline: '看清昇腾运行时如何使用 Device 内存',
  },
  language: {
    label: '语言',
    en: 'English',
    zh: '中文',
  },
  connection: {
    connecting: '正在连接 Agent…（第 {{attempt}} 次尝试）',
    connected: '已连接',
    connectedDetail: '{{backend}}后端 · 协议 {{protocol}} · {{role}}',
    noToken: '缺少访问令牌',
    noTokenHelp: '请打开 Agent 启动时打印的 URL（以 ?token=… 结尾）。如果没有运行中的 Agent，请先执行 "npm start"。',
    unauthorized: '未授权',
    unauthorizedHelp: 'Agent 拒绝了此页面的令牌。Agent 每次启动都会生成新令牌：请打开它最近一次打印的 URL。',
    unreachable: '无法连接 Agent',
    unreachableHelp: '{{seconds}} 秒后重试（第 {{attempt}} 次）。Agent 是否仍在运行？',
    incompatible: 'Agent 版本不兼容',
    incompatibleHelp: '请重新加载由 Agent 提供的页面，使页面与 Agent 来自同一版本。',
    retryNow: '立即重试',
  },
  host: {
    title: 'Agent',
    hostname: '主机',
    kernel: '内核',
    pageSize: 'Host 页大小',
    data: '数据',
  },
  backend: {
    sim: '模拟器',
    acl: 'ACL 运行时',
  },
  role: {
    driver: '驱动者',
    viewer: '观察者',
  },
  provenance: {
    simulated: '模拟',
    observed: '实测',
    modeled: '建模',
  },
};
