/** Placeholder until the HostCopiesView view lands. */
export function HostCopiesView() {
  return <section className="panel placeholder" data-testid="host-copies" />;
}
