import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('TARE_SHARD_ROUTING', () => {
  it('when it is unset, then inventory writes stay on the coordinator', () => {
    expect(loadConfig({}).shardRouting).toBe(false);
  });

  it('when it is on or off, then that is the setting', () => {
    expect(loadConfig({ TARE_SHARD_ROUTING: 'on' }).shardRouting).toBe(true);
    expect(loadConfig({ TARE_SHARD_ROUTING: ' off ' }).shardRouting).toBe(false);
  });

  it('when it is anything else, then start-up stops naming the variable and its values', () => {
    expect(() => loadConfig({ TARE_SHARD_ROUTING: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ TARE_SHARD_ROUTING: 'yes' })).toThrow(
      "TARE_SHARD_ROUTING must be one of off, on, got 'yes'.",
    );
  });
});
