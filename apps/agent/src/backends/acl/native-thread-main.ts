import { parentPort, workerData } from 'node:worker_threads';
import koffi from 'koffi';
import { declareAll } from './declarations.ts';
import { loadLibc } from './discovery.ts';
import { runNative } from './native-call.ts';
import { isNativeRequest, type NativeReply } from './native-protocol.ts';

/*
 * Inside the dedicated native thread: it loads the same library (dlopen hands back the handle the
 * main thread already holds, so both see one ACL runtime), makes the requested context current
 * on this thread, and runs the calls one after another.
 */
const port = parentPort;
const path: unknown = workerData;
if (port === null || typeof path !== 'string')
  throw new Error('native-thread-main.ts must run as a worker with the library path as workerData');

const declarations = declareAll(koffi.load(path), loadLibc());

port.on('message', (message: unknown) => {
  if (!isNativeRequest(message)) throw new Error(`native thread: unexpected message ${JSON.stringify(message)}`);
  try {
    if (message.context !== null) {
      // ACL contexts are per thread (V14): make the session's context current here before its call.
      const set = runNative(declarations, 'aclrtSetCurrentContext', { context: message.context });
      if (set.ret !== 0) {
        port.postMessage({ id: message.id, contextFailure: set, outcomes: [] } satisfies NativeReply);
        return;
      }
    }
    const reply: NativeReply = { id: message.id, outcomes: message.calls.map((call) => runNative(declarations, call.fn, call.args)) };
    port.postMessage(reply);
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    port.postMessage({ id: message.id, outcomes: [], failure } satisfies NativeReply);
  }
});
port.postMessage({ ready: declarations.missing.length });
