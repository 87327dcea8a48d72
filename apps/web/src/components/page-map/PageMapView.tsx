/** Placeholder until the PageMapView view lands. */
export function PageMapView() {
  return <section className="panel placeholder" data-testid="page-map" />;
}
