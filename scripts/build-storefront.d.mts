// Types of scripts/build-storefront.mjs for the tests that build the storefront before they start.

/** Builds storefront/dist (skipped when up to date unless `force`); false when the build failed. */
export function buildStorefront(options?: { force?: boolean }): Promise<boolean>;
