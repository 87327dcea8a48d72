/** Placeholder until the OperationLogView view lands. */
export function OperationLogView() {
  return <section className="panel placeholder" data-testid="log" />;
}
