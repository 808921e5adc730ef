export * from './cart_transform_run.js';
