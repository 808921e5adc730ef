// Every test file ends with nothing it started still running (see child-processes.ts).
import { afterAll } from 'vitest';
import { teardownAll } from './child-processes.js';

afterAll(teardownAll);
