import type { DeviceProfile, TlbGeometry } from '@pagelens/core';
import { sameGeometry } from './geometry.ts';

type Listener = () => void;

/**
 * The TLB geometry the view uses, per profile name: the profile's assumed geometry (PT-3) unless
 * the person edited it. Kept outside the shared store on purpose: it is a what-if knob of this
 * view, not replicated state, and it survives switching tabs and devices of the same profile.
 */
export class GeometryStore {
  readonly #edited = new Map<string, TlbGeometry>();
  readonly #listeners = new Set<Listener>();

  /** The geometry in use for `profile`; the same object until it changes (a stable snapshot). */
  get(profile: DeviceProfile): TlbGeometry {
    return this.#edited.get(profile.name) ?? profile.tlb;
  }

  isEdited(profile: DeviceProfile): boolean {
    return this.#edited.has(profile.name);
  }

  /** Setting the profile's own geometry is the same as a reset; an unchanged geometry notifies no one. */
  set(profile: DeviceProfile, geometry: TlbGeometry): void {
    if (sameGeometry(profile.tlb, geometry)) {
      this.reset(profile);
      return;
    }
    const current = this.#edited.get(profile.name);
    if (current !== undefined && sameGeometry(current, geometry)) return;
    this.#edited.set(profile.name, geometry);
    this.#notify();
  }

  reset(profile: DeviceProfile): void {
    if (this.#edited.delete(profile.name)) this.#notify();
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

export const geometryStore = new GeometryStore();
