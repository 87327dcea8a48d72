// The TLB simulator off the UI thread: a 16 M-access run takes most of a second, and the page
// must stay responsive meanwhile (the brief: never freeze the UI for more than ~100 ms).
import { runSimulation, type SimRequest } from './sim-run.ts';

addEventListener('message', (event: MessageEvent<SimRequest>) => {
  postMessage(runSimulation(event.data, () => performance.now()));
});
