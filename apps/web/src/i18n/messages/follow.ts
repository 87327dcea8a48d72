import { defineMessages } from '../define.ts';

/** A viewer following the driver's playground, or exploring on its own (issue 17 item 1). */
export const follow = defineMessages(
  {
    label: 'Following the driver',
    following: 'Following {{driver}}',
    theDriver: 'the driver',
    followingHint: "The driver's scenario, code, current line and marks, as the driver sees them. Read-only here.",
    waiting:
      'Following the driver: nothing to show yet. Its playground appears here once the driver opens one. Meanwhile this is your own.',
    detached: "Exploring on your own: your playground, your scenario. The driver's run goes on without you.",
    detachedWhere: 'The driver: {{status}}',
    detachedNote:
      'Your own copy: read it, change it, open other scenarios; only the driver runs code, and the driver does not see your changes.',
    detach: 'Detach',
    detachHint: "Stop following and explore on your own (e). The driver's playground is not affected.",
    followAgain: 'Follow again',
    followAgainHint: "Back to the driver's playground as it is now (e)",
    key: 'Detach from the driver and explore on your own, or follow again',
    status: {
      idle: 'not run yet',
      running: 'running…',
    },
    code: "Driver's code",
    unknownScenario: 'The driver opened the scenario “{{id}}”, which this page does not have: reload the page the agent serves.',
  },
  {
    label: '跟随驱动者',
    following: '正在跟随{{driver}}',
    theDriver: '驱动者',
    followingHint: '与驱动者看到的一致：场景、代码、当前行和标记。此处只读。',
    waiting: '正在跟随驱动者：暂无内容。驱动者打开演练场后会显示在这里；在此之前这里是你自己的演练场。',
    detached: '独自探索中：这是你自己的演练场和场景。驱动者的运行照常进行，不受影响。',
    detachedWhere: '驱动者：{{status}}',
    detachedNote: '这是你自己的副本：可以阅读、修改，也可以打开其他场景。只有驱动者能运行代码，驱动者看不到你的修改。',
    detach: '脱离跟随',
    detachHint: '停止跟随，独自探索（e）。不会影响驱动者的演练场。',
    followAgain: '重新跟随',
    followAgainHint: '回到驱动者演练场的当前状态（e）',
    key: '脱离驱动者独自探索，或重新跟随',
    status: {
      idle: '尚未运行',
      running: '运行中…',
    },
    code: '驱动者的代码',
    unknownScenario: '驱动者打开了场景“{{id}}”，但本页面没有该场景：请重新加载agent提供的页面。',
  },
);
