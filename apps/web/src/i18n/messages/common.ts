import { defineMessages } from '../define.ts';

/** Strings used across the app shell: name, connection, host, roles, provenance. */
export const common = defineMessages(
  {
    app: {
      name: 'PageLens',
      tagline: 'See what the Ascend runtime does with device memory',
    },
    language: {
      label: 'Language',
      en: 'English',
      zh: '中文',
    },
    connection: {
      connecting: 'Connecting to the agent… (attempt {{attempt}})',
      connected: 'Connected',
      connectedDetail: '{{backend}} backend · protocol {{protocol}} · {{role}}',
      noToken: 'No access token',
      noTokenHelp:
        'Open the URL the agent printed when it started; it ends in ?token=…. Start an agent with "npm start" if none is running.',
      unauthorized: 'Not authorised',
      unauthorizedHelp:
        'The agent refused this page’s token. The agent makes a new token at every start: open the URL it printed most recently.',
      unreachable: 'Agent unreachable',
      unreachableHelp: 'Retrying in {{seconds}} s (attempt {{attempt}}). Is the agent still running?',
      driverBusy: 'Another client is driving',
      driverBusyHelp:
        'The agent is running, but only one client may call at a time. Watch the same host read-only now, or wait: retrying in {{seconds}} s (attempt {{attempt}}); the session frees when its driver closes or its reconnect time runs out.',
      watchAsViewer: 'Watch as viewer',
      waitingTeardown: 'Waiting for the last session to be torn down',
      waitingTeardownHelp:
        'Its driver did not come back in time, so the agent is freeing what that session held. This page becomes the driver of a new session as soon as that ends; nothing to do meanwhile, or watch the same host read-only.',
      incompatible: 'Incompatible agent',
      incompatibleHelp: 'Reload the page that the agent serves, so the page and the agent come from the same release.',
      retryNow: 'Retry now',
    },
    host: {
      title: 'Agent',
      hostname: 'Host',
      kernel: 'Kernel',
      pageSize: 'Host page size',
      data: 'Data',
    },
    backend: {
      sim: 'simulator',
      acl: 'ACL runtime',
    },
    role: {
      driver: 'driver',
      viewer: 'viewer',
    },
    provenance: {
      simulated: 'simulated',
      observed: 'observed',
      modeled: 'modeled',
    },
    rateSpread:
      'Modeled jitter: the simulator draws each pageable copy’s rate between {{low}} and {{high}} (staging, CP-3), so the same copy can show another rate next time.',
    /** Between the clauses of a text made of parts (the host note). */
    clauseSeparator: '; ',
  },
  {
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
      driverBusy: '另一个客户端正在驱动',
      driverBusyHelp:
        'Agent 正在运行，但同一时间只允许一个客户端调用。现在可以只读观看同一主机，或等待：{{seconds}} 秒后重试（第 {{attempt}} 次）；当其驱动端关闭或重连时限结束后，会话即释放。',
      watchAsViewer: '以观察者身份观看',
      waitingTeardown: '正在等待上一个会话清理完毕',
      waitingTeardownHelp:
        '其驱动者未在时限内回来，Agent 正在释放该会话持有的对象。清理一结束，此页面即成为新会话的驱动者；期间无需操作，也可以只读观看同一主机。',
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
    rateSpread:
      '建模抖动：模拟器为每次可分页拷贝在 {{low}} 到 {{high}} 之间随机取一个速率（中转，CP-3），因此同一拷贝下次可能显示不同的速率。',
    clauseSeparator: '；',
  },
);
