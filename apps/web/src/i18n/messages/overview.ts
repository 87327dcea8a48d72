import { defineMessages } from '../define.ts';

/** The device overview in the left column: one card per device with its page pools. */
export const overview = defineMessages(
  {
    title: 'Devices',
    device: 'Device {{id}}',
    show: 'Show device {{id}} in the views',
    shown: 'shown',
    memory: '{{type}} · {{capacity}}',
    pools: {
      title: 'Page pools',
      normal: 'Normal ({{size}})',
      huge: 'Huge (2 MiB)',
      giant: 'Giant (1 GiB)',
      figures: '{{used}} used · {{free}} free',
      total: 'of {{total}}',
      unsupported: 'no 1 GiB pages on this SoC',
      exact: '{{used}} used, {{free}} free of {{total}}',
    },
    modeledNote:
      'Pool split modeled on the simulator (DM-15): the pools share one {{type}}; each free figure is what that page kind could still get.',
    observedNote: 'Pools as aclrtGetMemInfo last reported them (DM-15).',
    waitingNote:
      'Pools come from aclrtGetMemInfo readings (DM-15); none has arrived yet. Which frames back an allocation is not observable on this backend.',
    unread:
      'No pool reading yet: the agent reads device {{id}} with aclrtGetMemInfo once it is open (at start when read-only, else after this session’s aclrtSetDevice).',
    holders: 'In use by this agent: {{own}} · by other processes or the runtime: {{others}}',
    objects: {
      title: 'Live objects',
      allocations_one: '{{count}} allocation',
      allocations_other: '{{count}} allocations',
      physical_one: '{{count}} physical handle',
      physical_other: '{{count}} physical handles',
      reservations_one: '{{count}} reservation',
      reservations_other: '{{count}} reservations',
      mappings_one: '{{count}} mapping',
      mappings_other: '{{count}} mappings',
      none: 'nothing allocated yet',
    },
    none: 'The agent reported no devices.',
  },
  {
    title: '设备',
    device: 'Device {{id}}',
    show: '在各视图中显示 Device {{id}}',
    shown: '当前',
    memory: '{{type}} · {{capacity}}',
    pools: {
      title: '页内存池',
      normal: '普通页（{{size}}）',
      huge: '大页（2 MiB）',
      giant: '巨页（1 GiB）',
      figures: '已用 {{used}} · 空闲 {{free}}',
      total: '共 {{total}}',
      unsupported: '此 SoC 不支持 1 GiB 页',
      exact: '已用 {{used}}，空闲 {{free}}，共 {{total}}',
    },
    modeledNote: '内存池划分为模拟器的建模结果（DM-15）：各内存池共用同一块 {{type}}，空闲值表示该页类型还能分配到的内存。',
    observedNote: '内存池数据来自最近一次 aclrtGetMemInfo 的报告（DM-15）。',
    waitingNote: '内存池数据来自 aclrtGetMemInfo 读数（DM-15），目前还没有收到任何读数。此后端无法观测分配实际使用了哪些物理帧。',
    unread:
      '尚无内存池读数：Agent 在 Device {{id}} 打开后用 aclrtGetMemInfo 读取（只读模式下在启动时读取，否则在本会话调用 aclrtSetDevice 之后读取）。',
    holders: '本 Agent 占用：{{own}} · 其他进程或运行时占用：{{others}}',
    objects: {
      title: '存活对象',
      allocations_one: '{{count}} 个分配',
      allocations_other: '{{count}} 个分配',
      physical_one: '{{count}} 个物理句柄',
      physical_other: '{{count}} 个物理句柄',
      reservations_one: '{{count}} 个地址预留',
      reservations_other: '{{count}} 个地址预留',
      mappings_one: '{{count}} 个映射',
      mappings_other: '{{count}} 个映射',
      none: '尚未分配任何内存',
    },
    none: 'Agent 未报告任何设备。',
  },
);
