/**
 * The `events` message for consecutive events `from`…`to` whose JSON array is already made:
 * the text `JSON.stringify({type: 'events', from, to, events})` gives. The array is serialized
 * once and shared by every client's frame and the journal's line (events are most of the bytes
 * the agent writes, and JSON.stringify most of its time on them).
 */
export function eventsFrameText(from: number, to: number, eventsJson: string): string {
  return `{"type":"events","from":${from},"to":${to},"events":${eventsJson}}`;
}
