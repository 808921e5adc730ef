import type { SoundParts } from './sound-parts.js';

/**
 * The locations of one variant's or stock item's levels in the file: each one of the shop's (when
 * they are known) and each stated once. Returns the check for the level at `path`.
 */
export function levelLocationCheck(
  locations: Set<string> | undefined,
  sound: SoundParts,
  report: (path: string, message: string) => void,
) {
  const seen = new Set<string>();
  return (path: string, locationId: string) => {
    if (!sound.clean(`${path}/locationId`)) return;
    if (locations && !locations.has(locationId)) {
      report(`${path}/locationId`, `location '${locationId}' is not in this shop's locations`);
    }
    if (seen.has(locationId)) report(`${path}/locationId`, `location '${locationId}' appears twice`);
    seen.add(locationId);
  };
}
