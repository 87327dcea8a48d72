/** Placeholder until the DeviceOverview view lands. */
export function DeviceOverview() {
  return <section className="panel placeholder" data-testid="overview" />;
}
