/**
 * What the agent itself says to people (notices, refusals, the host note), in English. The web
 * has the same codes in Chinese (apps/web/src/i18n/texts.ts); the English text also travels on the
 * wire for scripted clients.
 */
export const AGENT_TEXTS_EN = {
  // Notices
  'host-reset': 'the host was reset ({{profile}} × {{devices}})',
  'resume-expired': 'your earlier session ended (its grace period passed) and was torn down; this is a new session',
  'taken-over': 'another client ({{remote}}) took over the driver session; you are now a viewer',
  'driver-after-teardown':
    'the previous driver session is being torn down (its driver did not come back in time); you become the driver as soon as that is done',
  // The host note of the welcome
  'host-note-sim': 'simulated {{profile}}; the agent runs on Linux {{kernel}}',
  // … and its parts on a real runtime (or PageLens's C test double of it), joined with "; "
  'host-note-runtime': 'ACL runtime {{path}}, SoC {{soc}}',
  'host-note-runtime-version': 'ACL runtime {{path}} (ACL API {{version}}), SoC {{soc}}',
  'host-note-test-double':
    'TEST DOUBLE, not hardware: {{path}} is PageLens\'s C stand-in for the ACL library ("{{double}}"); every number comes from it',
  'host-note-devices-capped': '{{found}} devices found; PageLens shows the first {{shown}}',
  'host-note-soc-family': 'SoC {{soc}} uses the {{profile}} profile (same family: page sizes, padding and features)',
  'host-note-soc-unknown':
    'SoC "{{soc}}" is not one PageLens knows: it uses a generic profile (4 KiB / 2 MiB / 1 GiB pages and 32-byte padding assumed); pools, addresses and return codes still come from the runtime',
  'host-note-soc-null':
    'SoC unknown (aclrtGetSocName returned NULL) is not one PageLens knows: it uses a generic profile (4 KiB / 2 MiB / 1 GiB pages and 32-byte padding assumed); pools, addresses and return codes still come from the runtime',
  'host-note-no-context-calls': 'no aclrtSetCurrentContext: blocking calls run on the main thread and sampling is off',
  'host-note-no-thread': '{{error}}: blocking calls run on the main thread and sampling is off',
  'host-note-no-frames':
    'physical frames are not observable through ACL: allocations carry no frame placement; pools come from aclrtGetMemInfo',
  'host-note-read-only': 'read-only: calls that change state are refused (start with --allow-mutations)',
  // Connection and admission
  'hello-required': 'say hello first: {"type":"hello","protocol":{{protocol}},"role":"driver"}',
  'already-greeted': 'hello was already accepted on this connection',
  'protocol-mismatch':
    'this agent speaks PageLens protocol {{agent}} but the client sent protocol {{client}}; use a client and agent from the same release (reload the page the agent serves)',
  'driver-busy-grace':
    'another driver session is active (its driver has {{seconds}} s left to reconnect); connect as a viewer (role "viewer"), or start the agent with --allow-takeover',
  'driver-busy-answering':
    'another driver session is active (it is still driven from {{remote}}, which answers; close that tab first); connect as a viewer (role "viewer"), or start the agent with --allow-takeover',
  'driver-busy':
    'another driver session is active (from {{remote}}); connect as a viewer (role "viewer"), or start the agent with --allow-takeover',
  'viewer-cannot-call': 'viewers watch and cannot call; connect with role "driver" to drive the agent',
  'viewer-cannot-publish':
    "only the driver publishes the playground state that viewers follow; this connection is a viewer (it follows the driver's playground, or detaches from it, on its own page)",
  'viewer-cannot-reset': 'only the driver may reset the host; a viewer sees the reset when the driver makes one',
  'reset-real-devices':
    'the {{backend}} backend runs on the real devices: a reset there only tears the session down; send {"type":"reset"} without profile, devices or seed',
  'unknown-function': '"{{fn}}" is not an ACL function PageLens knows; the welcome message lists them in "functions"',
  'unknown-profile': 'unknown profile "{{profile}}"; a reset may choose {{profiles}}',
  'processes-sim-only': 'only the simulator runs more than one process; on real hardware the agent is the only process',
  'process-range': 'a session has processes 0 to {{last}}',
  'args-invalid': 'arguments of {{fn}} are not valid',
  'backend-failed': '{{fn}} failed inside the backend: {{error}}',
  // The acl backend's own refusals, before the runtime
  'acl-read-only':
    'refused by the PageLens agent: {{fn}} changes device or host state, and the agent was started read-only; restart it with --allow-mutations to allow it (S-9). Nothing reached the ACL runtime.',
  'acl-missing-symbol':
    '{{fn}} is not available: the ACL library does not export the symbol {{fn}} (an older CANN?), so PageLens turned it off. Nothing reached the ACL runtime.',
  // What the page itself answers a call when there is no agent to ask
  'not-connected': 'not connected to the agent',
  'connection-lost': 'the connection to the agent was lost',
  // Rate limits and quotas
  'rate-calls': 'more than {{perSecond}} calls per second (--max-calls-per-sec); slow down',
  'rate-queued-calls': '{{calls}} calls are already waiting; wait for results before sending more',
  'rate-queued-bytes': '{{bytes, size}} of calls are already waiting; wait for results before sending more',
  'quota-objects': 'this session already holds {{held}} live objects, the limit (--max-objects {{limit}}); free some first',
  'quota-device-bytes':
    "{{more, size}} more would take this session's device memory to {{total, size}}, past its limit of {{limit, size}} (--max-device-bytes)",
  'quota-pinned-bytes':
    "{{more, size}} more would take this session's pinned host memory to {{total, size}}, past its limit of {{limit, size}} (--max-pinned-bytes)",
  'quota-pageable-bytes':
    "{{more, size}} more would take this session's pageable host memory to {{total, size}}, past its limit of {{limit, size}} (--max-host-bytes)",
} as const;
