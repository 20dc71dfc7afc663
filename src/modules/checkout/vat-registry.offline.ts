import type { VatId } from './vat-id.ts';
import type { VatIdRegistry, VatIdStanding } from './vat-registry.ts';

/**
 * A registry that needs no network: a VAT id that passed the form and check-digit checks counts as
 * registered, except the ids the configuration lists as unregistered (`vatIds.unregistered`), which
 * is how an operator withdraws a number the tax office has struck off.
 */
export function offlineVatIdRegistry(unregistered: readonly string[]): VatIdRegistry {
  const struckOff = new Set(unregistered.map((id) => id.replace(/[\s.-]/g, '').toUpperCase()));
  return {
    async standing(id: VatId): Promise<VatIdStanding> {
      return struckOff.has(id.text) ? 'unregistered' : 'registered';
    },
  };
}
