import type { Config } from '../../config.ts';
import type { VatId } from './vat-id.ts';
import { offlineVatIdRegistry } from './vat-registry.offline.ts';

// Whether a well-formed VAT id is registered to a business: the EU's VIES service answers that. The
// quote asks through this interface; the implementation in use is chosen by `vatIds.registry`.

/** registered: confirmed; unregistered: the registry does not know it; unavailable: no answer. */
export type VatIdStanding = 'registered' | 'unregistered' | 'unavailable';

export interface VatIdRegistry {
  standing(id: VatId): Promise<VatIdStanding>;
}

const registries = new WeakMap<Config, VatIdRegistry>();

/** The registry the configuration names (one per configuration). */
export function vatIdRegistryOf(config: Config): VatIdRegistry {
  let registry = registries.get(config);
  if (!registry) {
    registry = offlineVatIdRegistry(config.vatIds.unregistered);
    registries.set(config, registry);
  }
  return registry;
}
