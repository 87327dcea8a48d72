import { defineMessages } from '../define.ts';

/** The processes panel: the programs `pagelens run` brought to the agent. */
export const processes = defineMessages(
  {
    title: 'Programs',
    all: 'Show all processes',
    showOnly: 'Show only process {{pid}} in every view (the page map dims the others)',
    showAll: 'Show every process again',
    chip: {
      showing: 'Showing process {{pid}}',
      showingRun: 'Showing process {{pid}} ({{command}})',
      showAll: 'Show all',
    },
    keys: {
      next: 'Show only the next program’s process; after the last, all again',
    },
    pids: 'process {{pid}} · pid {{osPid}}',
    mode: {
      simulated: 'simulated',
      traced: 'traced',
    },
    state: {
      running: 'running',
      exited: 'exited with code {{code}}',
      killed: 'killed by {{signal}}',
      ended: 'ended (exit status unknown)',
    },
    calls_one: '{{count}} call',
    calls_other: '{{count}} calls',
    errors_one: '{{count}} error',
    errors_other: '{{count}} errors',
    dropped_one: '{{count}} dropped',
    dropped_other: '{{count}} dropped',
    droppedUnknown: 'dropped: not yet known',
    droppedTitle: 'Trace records lost because the ring was full or the agent was unreachable; a traced program reports the count at exit',
    beforeReset: 'before the reset · its memory is gone',
    beforeResetTitle:
      'The host was reset after this program began: its process and memory are no longer in the model. It stays listed as history.',
  },
  {
    title: '程序',
    all: '显示全部进程',
    showOnly: '所有视图中只显示进程 {{pid}}（页面图以淡色显示其他进程）',
    showAll: '重新显示全部进程',
    chip: {
      showing: '正在显示进程 {{pid}}',
      showingRun: '正在显示进程 {{pid}}（{{command}}）',
      showAll: '显示全部',
    },
    keys: {
      next: '只显示下一个程序的进程；最后一个之后恢复显示全部',
    },
    pids: '进程 {{pid}} · pid {{osPid}}',
    mode: {
      simulated: '模拟',
      traced: '跟踪',
    },
    state: {
      running: '运行中',
      exited: '已退出，退出码 {{code}}',
      killed: '被 {{signal}} 终止',
      ended: '已结束（退出状态未知）',
    },
    calls_one: '{{count}} 次调用',
    calls_other: '{{count}} 次调用',
    errors_one: '{{count}} 个错误',
    errors_other: '{{count}} 个错误',
    dropped_one: '丢弃 {{count}} 条',
    dropped_other: '丢弃 {{count}} 条',
    droppedUnknown: '丢弃：尚不知道',
    droppedTitle: '因环形缓冲区已满或无法连接代理而丢失的跟踪记录；被跟踪的程序在退出时报告此数',
    beforeReset: '重置之前 · 其内存已不存在',
    beforeResetTitle: '此程序开始后主机已被重置：它的进程和内存已不在模型中。它作为历史记录保留在列表中。',
  },
);
