import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a build script in plain JavaScript, without declarations
import { buildPickerScript, PICKER_ASSET } from '../scripts/picker-script.mjs';

describe('the theme app extension asset', () => {
  it('when the picker sources are built, then they make exactly the checked-in script (npm run build:picker -w @tare/client)', async () => {
    const built = (await buildPickerScript()) as string;
    expect(await readFile(PICKER_ASSET as string, 'utf8')).toBe(built);
  });
});
