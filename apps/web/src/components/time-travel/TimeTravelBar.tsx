/** Placeholder until the TimeTravelBar view lands. */
export function TimeTravelBar() {
  return <section className="panel placeholder" data-testid="time-travel" />;
}
