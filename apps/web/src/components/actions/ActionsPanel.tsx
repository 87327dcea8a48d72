/** Placeholder until the ActionsPanel view lands. */
export function ActionsPanel() {
  return <section className="panel placeholder" data-testid="actions" />;
}
