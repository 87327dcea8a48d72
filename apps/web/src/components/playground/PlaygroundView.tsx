/** Placeholder until the PlaygroundView view lands. */
export function PlaygroundView() {
  return <section className="panel placeholder" data-testid="playground" />;
}
