import { openEarlySocket } from './net/early-socket.ts';

// The app's script is large; the agent's snapshot of a large host takes a while to build. Open the
// socket and say hello first, so both happen at once, then load the app, which adopts the socket.
const early = openEarlySocket(window.location.href, (url) => new WebSocket(url));
void import('./main.tsx').then(({ start }) => start(early));
