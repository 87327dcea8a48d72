/** Placeholder until the AddressSpaceView view lands. */
export function AddressSpaceView() {
  return <section className="panel placeholder" data-testid="address-space" />;
}
