// The script a storefront loads (theme app extension asset, sandbox storefront): it registers
// the element, which then renders every <tare-measure-picker> already on the page or added later.
import { defineTareMeasurePicker } from './element.js';

defineTareMeasurePicker();
