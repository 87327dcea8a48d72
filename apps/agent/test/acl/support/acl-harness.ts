import { AclBackend } from '../../../src/backends/acl/acl-backend.ts';
import { type Harness, startHarnessOn, TOKEN } from '../../support/agent-harness.ts';

export { TOKEN };

export type AclHarness = Harness<AclBackend>;

export interface AclHarnessOptions {
  readonly lib: string;
  readonly allowMutations?: boolean;
  readonly sampleMs?: number;
}

/** A real agent (HTTP server, hub) on the acl backend, loading `lib` (the C test double), in this process. */
export async function startAclHarness(options: AclHarnessOptions): Promise<AclHarness> {
  const backend = await AclBackend.open({
    aclLib: options.lib,
    allowMutations: options.allowMutations ?? true,
    sampleMs: options.sampleMs ?? 0,
    env: {},
  });
  return startHarnessOn(backend);
}
