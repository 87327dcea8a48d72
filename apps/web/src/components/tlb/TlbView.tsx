/** Placeholder until the TlbView view lands. */
export function TlbView() {
  return <section className="panel placeholder" data-testid="tlb" />;
}
