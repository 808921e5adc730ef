// vitest's global setup: gives the run an id naming its Citus template (citus-template.ts) and
// drops that template from every node when the run ends, whether or not a test file made it.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { citusTemplateName, dropCitusDatabase } from './citus.js';

export default function setup(project: TestProject) {
  const run = randomBytes(6).toString('hex');
  project.provide('citusTemplateRun', run);
  return async () => {
    const url = process.env.TEST_CITUS_URL;
    if (url) await dropCitusDatabase(url, citusTemplateName(run));
  };
}
