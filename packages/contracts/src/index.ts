export * from './catalog.js';
export * from './envelope.js';
export * from './errors.js';
export * from './ids.js';
export * from './settings.js';
export * from './inventory.js';
