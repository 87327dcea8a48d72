import { PROTOCOL_VERSION, parseAgentMessage } from '@pagelens/core';
import WebSocket from 'ws';
import { startBenchAgent } from '../support/agent.ts';
import { type BenchResult, type BenchSuite, quantile } from '../support/result.ts';

const TRIALS = 1000;

/** Opens a socket, says hello, waits for welcome; returns [connect→welcome, hello→welcome] in ms. */
function trial(port: number, token: string): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let helloSent = 0;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
    ws.on('open', () => {
      helloSent = performance.now();
      ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, role: 'viewer' }));
    });
    ws.on('message', (data: Buffer) => {
      const parsed = parseAgentMessage(data.toString());
      if (!parsed.ok || parsed.value.type !== 'welcome') {
        reject(new Error(`expected welcome, got ${data.toString().slice(0, 200)}`));
        return;
      }
      const done = performance.now();
      ws.close();
      resolve([done - started, done - helloSent]);
    });
    ws.on('error', reject);
  });
}

export const handshakeSuite: BenchSuite = {
  name: 'handshake',
  async run(): Promise<BenchResult[]> {
    const agent = await startBenchAgent();
    try {
      for (let i = 0; i < 50; i += 1) await trial(agent.port, agent.token); // warm-up
      const connect: number[] = [];
      const hello: number[] = [];
      for (let i = 0; i < TRIALS; i += 1) {
        const [c, h] = await trial(agent.port, agent.token);
        connect.push(c);
        hello.push(h);
      }
      connect.sort((a, b) => a - b);
      hello.sort((a, b) => a - b);
      const detail = `${TRIALS} trials over loopback against the real CLI (simulator backend), after 50 warm-up trials`;
      return [
        { name: 'handshake.hello_to_welcome.p50', value: quantile(hello, 0.5), unit: 'ms', higherIsBetter: false, detail },
        { name: 'handshake.hello_to_welcome.p99', value: quantile(hello, 0.99), unit: 'ms', higherIsBetter: false, detail },
        {
          name: 'handshake.connect_to_welcome.p50',
          value: quantile(connect, 0.5),
          unit: 'ms',
          higherIsBetter: false,
          detail: `${detail}; includes TCP and WebSocket handshakes`,
        },
        {
          name: 'handshake.connect_to_welcome.p99',
          value: quantile(connect, 0.99),
          unit: 'ms',
          higherIsBetter: false,
          detail: `${detail}; includes TCP and WebSocket handshakes`,
        },
      ];
    } finally {
      await agent.stop();
    }
  },
};
