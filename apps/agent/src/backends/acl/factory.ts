import type { BackendFactory } from '../backend.ts';
import type { AclBackendOptions } from './acl-backend.ts';

/**
 * The acl backend's registry entry. It loads the binding (and koffi, a native module) only when
 * --backend acl is chosen, so the simulator never depends on it.
 */
export function aclBackendFactory(options: AclBackendOptions): BackendFactory {
  return {
    name: 'acl',
    description: 'the real ACL runtime through koffi (an Ascend host)',
    async create() {
      const { AclBackend } = await import('./acl-backend.ts');
      return AclBackend.open(options);
    },
  };
}
