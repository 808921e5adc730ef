// `npm run build` (and `npm install`, through the root prepare script): a clean dist/.
import { bundle } from './bundle.mjs';

await bundle({ clean: true });
