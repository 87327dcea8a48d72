import type { TEXT_PARTS } from '@pagelens/core';

/** What the agent says to people (notices, refusals, quotas, the host note), in Chinese (core: texts/agent-texts.ts). */
export const AGENT_TEXTS_ZH: Readonly<Record<keyof typeof TEXT_PARTS.agent, string>> = {
  'host-reset': 'Host 已重置（{{profile}} × {{devices}}）',
  'resume-expired': '你之前的会话已结束（宽限期已过）并被清理；这是一个新会话',
  'taken-over': '另一个客户端（{{remote}}）接管了驱动会话；你现在是观察者',
  'driver-after-teardown': '上一个驱动会话正在清理（其驱动者未在宽限期内回来）；清理完成后你即成为驱动者',
  'host-note-sim': '模拟的 {{profile}}；Agent 运行于 Linux {{kernel}}',
  'host-note-runtime': 'ACL 运行时 {{path}}，SoC {{soc}}',
  'host-note-runtime-version': 'ACL 运行时 {{path}}（ACL API {{version}}），SoC {{soc}}',
  'host-note-test-double': '测试替身，不是硬件：{{path}} 是 PageLens 用 C 写的 ACL 库替身（"{{double}}"）；所有数字都来自它',
  'host-note-devices-capped': '发现 {{found}} 个 Device；PageLens 只显示前 {{shown}} 个',
  'host-note-soc-family': 'SoC {{soc}} 使用 {{profile}} 配置（同一系列：页大小、填充和特性相同）',
  'host-note-soc-unknown':
    'PageLens 不认识 SoC "{{soc}}"：使用通用配置（假定 4 KiB / 2 MiB / 1 GiB 页和 32 字节填充）；内存池、地址和返回码仍来自运行时',
  'host-note-soc-null':
    'SoC 未知（aclrtGetSocName 返回 NULL），PageLens 不认识：使用通用配置（假定 4 KiB / 2 MiB / 1 GiB 页和 32 字节填充）；内存池、地址和返回码仍来自运行时',
  'host-note-no-context-calls': '没有 aclrtSetCurrentContext：阻塞调用在主线程上运行，采样关闭',
  'host-note-no-thread': '{{error}}：阻塞调用在主线程上运行，采样关闭',
  'host-note-no-frames': '通过 ACL 无法观察物理帧：分配不带帧位置信息；内存池数据来自 aclrtGetMemInfo',
  'host-note-read-only': '只读：会改变状态的调用被拒绝（以 --allow-mutations 启动可允许）',
  'hello-required': '请先发送 hello：{"type":"hello","protocol":{{protocol}},"role":"driver"}',
  'already-greeted': '此连接已接受过 hello',
  'protocol-mismatch':
    '此 Agent 使用 PageLens 协议 {{agent}}，但客户端发送的是协议 {{client}}；请使用同一版本的客户端和 Agent（重新加载 Agent 提供的页面）',
  'driver-busy-grace':
    '已有另一个驱动会话（其驱动者还有 {{seconds}} 秒可以重新连接）；请以观察者身份连接（role "viewer"），或以 --allow-takeover 启动 Agent',
  'driver-busy-answering':
    '已有另一个驱动会话（仍由 {{remote}} 驱动且在响应；请先关闭那个标签页）；请以观察者身份连接（role "viewer"），或以 --allow-takeover 启动 Agent',
  'driver-busy': '已有另一个驱动会话（来自 {{remote}}）；请以观察者身份连接（role "viewer"），或以 --allow-takeover 启动 Agent',
  'viewer-cannot-call': '观察者只能观看，不能调用；请以 role "driver" 连接来驱动 Agent',
  'viewer-cannot-publish': '只有驱动者发布观察者跟随的代码演练状态；此连接是观察者（它在自己的页面上跟随驱动者的代码演练，或从中脱离）',
  'viewer-cannot-reset': '只有驱动者可以重置 Host；驱动者重置时，观察者会看到这次重置',
  'reset-real-devices': '{{backend}} 后端运行在真实设备上：在那里重置只会清理会话；请发送不带 profile、devices 或 seed 的 {"type":"reset"}',
  'unknown-function': '"{{fn}}" 不是 PageLens 认识的 ACL 函数；welcome 消息的 "functions" 中列出了全部函数',
  'unknown-profile': '未知的配置 "{{profile}}"；重置时可选择 {{profiles}}',
  'processes-sim-only': '只有模拟器可以运行多个进程；在真实硬件上 Agent 是唯一的进程',
  'process-range': '一个会话的进程编号为 0 到 {{last}}',
  'args-invalid': '{{fn}} 的参数无效',
  'backend-failed': '{{fn}} 在后端内部失败：{{error}}',
  'acl-read-only':
    'PageLens Agent 拒绝了调用：{{fn}} 会改变 Device 或 Host 状态，而 Agent 以只读方式启动；请以 --allow-mutations 重新启动以允许它（S-9）。没有任何调用到达 ACL 运行时。',
  'acl-missing-symbol': '{{fn}} 不可用：ACL 库没有导出符号 {{fn}}（较旧的 CANN？），因此 PageLens 关闭了它。没有任何调用到达 ACL 运行时。',
  'not-connected': '未连接到 Agent',
  'connection-lost': '与 Agent 的连接已断开',
  'rate-calls': '每秒调用超过 {{perSecond}} 次（--max-calls-per-sec）；请放慢速度',
  'rate-queued-calls': '已有 {{calls}} 个调用在等待；请等结果返回后再发送',
  'rate-queued-bytes': '已有 {{bytes, size}} 的调用在等待；请等结果返回后再发送',
  'quota-objects': '本会话已持有 {{held}} 个活动对象，已达上限（--max-objects {{limit}}）；请先释放一些',
  'quota-device-bytes':
    '再增加 {{more, size}} 会使本会话的 Device 内存达到 {{total, size}}，超过上限 {{limit, size}}（--max-device-bytes）',
  'quota-pinned-bytes':
    '再增加 {{more, size}} 会使本会话的锁页 Host 内存达到 {{total, size}}，超过上限 {{limit, size}}（--max-pinned-bytes）',
  'quota-pageable-bytes':
    '再增加 {{more, size}} 会使本会话的可分页 Host 内存达到 {{total, size}}，超过上限 {{limit, size}}（--max-host-bytes）',
};
