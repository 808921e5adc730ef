/**
 * NOTIFY channels that keep every instance's caches honest. Writers publish inside their
 * transaction (delivered at commit); each instance listens and drops what it cached.
 */
export const CATALOG_CHANGED = 'tare_catalog_changed'; // payload: shop id
export const API_KEYS_CHANGED = 'tare_api_keys_changed'; // payload: key id
