/** English UI strings. Every key here must exist in zh.ts too (the type checker enforces it). */
export const en = {
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
    noTokenHelp: 'Open the URL the agent printed when it started; it ends in ?token=…. Start an agent with "npm start" if none is running.',
    unauthorized: 'Not authorised',
    unauthorizedHelp:
      'The agent refused this page’s token. The agent makes a new token at every start: open the URL it printed most recently.',
    unreachable: 'Agent unreachable',
    unreachableHelp: 'Retrying in {{seconds}} s (attempt {{attempt}}). Is the agent still running?',
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
} as const;

type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Messages = Widen<typeof en>;
