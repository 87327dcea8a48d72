// The dedicated native thread runs from TypeScript sources like the rest of the agent (see
// bin/pagelens.mjs): tsx compiles each module as it is loaded, in this worker too.
import { register } from 'tsx/esm/api';

register();
await import('./native-thread-main.ts');
