/** Placeholder until the Inspector view lands. */
export function Inspector() {
  return <section className="panel placeholder" data-testid="inspector" />;
}
