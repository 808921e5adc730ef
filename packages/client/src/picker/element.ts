import { readShopConfig, readVariantConfig, type PickerShopConfig, type PickerVariantConfig } from './config.js';
import { pickerFields } from './fields.js';
import { formatMoney, pickLine, type PickedLine } from './picked-line.js';
import { shopLabels } from './shop-labels.js';

/** The element's tag; a page may hold several (one per product block). */
export const PICKER_TAG = 'tare-measure-picker';

/**
 * Texts of the picker's own controls, each given by the attribute `text-{key}` (the theme's
 * translations); English when the page gives none.
 */
export const PICKER_TEXTS = { add: 'Add to cart', adding: 'Adding…', added: 'Added to cart', price: 'Price' } as const;
const TEXTS = PICKER_TEXTS;

let instances = 0;

/**
 * Registers `<tare-measure-picker>` (once; later calls do nothing). Attributes: `variant-id` (the
 * selected variant), `root` (the shop's root URL, where `cart/add.js` lives; `/` by default),
 * `locale` (else the page's `lang`), and `text-add`, `text-added`, `text-price` for the theme's
 * translations. Children: `<script type="application/json" data-tare-variants>` holding each
 * variant's `$app:tare.measurement` document by variant id, and
 * `<script type="application/json" data-tare-shop>` holding the shop's `$app:tare.labels`.
 * In a Shopify product form, choosing another variant (its `name="id"` field) follows it.
 */
export function defineTareMeasurePicker(registry: CustomElementRegistry = customElements): void {
  if (registry.get(PICKER_TAG)) return;
  registry.define(PICKER_TAG, createPickerClass());
}

function createPickerClass() {
  return class TareMeasurePicker extends HTMLElement {
    static observedAttributes = ['variant-id', 'locale'];
    #uid = `tare-picker-${++instances}`;
    #variants: Record<string, PickerVariantConfig> = {};
    #shop: PickerShopConfig | undefined;
    #ui:
      | {
          value(): number | undefined;
          /** A variant made from dimensions: each factor's value (a fixed one's undefined). */
          factors?: () => (number | undefined)[];
          /** The area or volume the factors make, with the overage. */
          made?: HTMLElement;
          price: HTMLElement;
          reference: HTMLElement;
          unit: HTMLElement;
          error: HTMLElement;
          status: HTMLElement;
          button: HTMLButtonElement;
        }
      | undefined;
    #onFormChange = (event: Event) => {
      const field = event.target as HTMLInputElement | null;
      if (field?.name === 'id' && field.form?.action.includes('/cart/add'))
        this.setAttribute('variant-id', field.value);
    };

    connectedCallback() {
      const start = () => {
        this.#readConfig();
        this.#render();
      };
      // Defined before the page is parsed (a script without defer), the element is connected
      // before its children are: its documents are read once the document has been parsed.
      if (this.ownerDocument.readyState === 'loading') {
        this.ownerDocument.addEventListener('DOMContentLoaded', start, { once: true });
      } else start();
      this.ownerDocument.addEventListener('change', this.#onFormChange);
    }

    disconnectedCallback() {
      this.ownerDocument.removeEventListener('change', this.#onFormChange);
    }

    attributeChangedCallback() {
      if (this.isConnected && this.#shop) this.#render();
    }

    #readConfig() {
      const json = (selector: string) =>
        this.querySelector(`script[type="application/json"][${selector}]`)?.textContent;
      this.#shop = readShopConfig(json('data-tare-shop') ?? '');
      let variants: unknown;
      try {
        variants = JSON.parse(json('data-tare-variants') ?? '{}');
      } catch {
        variants = {};
      }
      this.#variants = {};
      for (const [id, doc] of Object.entries(variants as Record<string, unknown>)) {
        const config = readVariantConfig(doc);
        if (config) this.#variants[id] = config;
      }
    }

    get #context() {
      const variantId = this.getAttribute('variant-id') ?? '';
      const variant = this.#variants[variantId];
      if (!variant || !this.#shop) return undefined;
      const requested = this.getAttribute('locale') ?? (this.ownerDocument.documentElement.lang || undefined);
      const { locale, labels } = shopLabels(this.#shop, requested);
      return { variantId, variant, shop: this.#shop, locale, labels };
    }

    #text(key: keyof typeof TEXTS): string {
      return this.getAttribute(`text-${key}`) ?? TEXTS[key];
    }

    #render() {
      this.querySelectorAll(':scope > .tare-picker').forEach((old) => old.remove());
      this.#ui = undefined;
      const context = this.#context;
      // A variant Tare does not measure (or a document it cannot read) is left to the theme's own form.
      if (!context) return;
      const fields = pickerFields(context.variant, context.labels);
      const root = this.#element('div', { class: 'tare-picker' });
      const error = this.#element('p', { id: `${this.#uid}-error`, class: 'tare-picker__error', role: 'alert' });
      let value: () => number | undefined = () => undefined;
      let factors: (() => (number | undefined)[]) | undefined;
      let made: HTMLElement | undefined;
      if (fields.factors) {
        // PRODUCT.md §19: one input per factor the customer gives, a fixed one shown, not asked.
        const inputs = fields.factors.map((factor, i) => {
          if (factor.fixed !== undefined) {
            root.append(this.#element('p', { class: 'tare-picker__fixed' }, `${factor.label}: ${factor.fixed}`));
            return undefined;
          }
          const input = this.#element('input', {
            id: `${this.#uid}-factor-${i}`,
            type: 'number',
            inputmode: 'decimal',
            ...factor.number!,
            'aria-describedby': error.id,
          }) as HTMLInputElement;
          root.append(this.#element('label', { for: input.id }, factor.label), input);
          input.addEventListener('input', () => this.#update(false));
          input.addEventListener('change', () => this.#update(true));
          return input;
        });
        factors = () => inputs.map((input) => (input && input.value.trim() !== '' ? Number(input.value) : undefined));
        made = this.#element('output', { class: 'tare-picker__made', 'aria-live': 'polite' });
        root.append(made);
      } else if (fields.style === 'number' && fields.number) {
        const input = this.#element('input', {
          id: `${this.#uid}-value`,
          type: 'number',
          inputmode: 'decimal',
          ...fields.number,
          'aria-describedby': error.id,
        }) as HTMLInputElement;
        root.append(this.#element('label', { for: input.id }, fields.label), input);
        value = () => (input.value.trim() === '' ? undefined : Number(input.value));
        input.addEventListener('input', () => this.#update(false));
        input.addEventListener('change', () => this.#update(true));
      } else if (fields.style === 'pills') {
        const group = this.#element('fieldset', { class: 'tare-picker__pills', 'aria-describedby': error.id });
        group.append(this.#element('legend', {}, fields.label));
        (fields.choices ?? []).forEach((choice, i) => {
          const radio = this.#element('input', {
            type: 'radio',
            name: `${this.#uid}-value`,
            id: `${this.#uid}-${i}`,
            value: String(choice.value),
          });
          if (i === 0) radio.setAttribute('checked', '');
          radio.addEventListener('change', () => this.#update(true));
          group.append(this.#element('label', { for: radio.id }, radio, ` ${choice.text}`));
        });
        root.append(group);
        value = () => {
          const checked = group.querySelector<HTMLInputElement>('input:checked');
          return checked ? Number(checked.value) : undefined;
        };
      } else {
        const select = this.#element('select', {
          id: `${this.#uid}-value`,
          'aria-describedby': error.id,
        }) as HTMLSelectElement;
        for (const choice of fields.choices ?? [])
          select.append(this.#element('option', { value: String(choice.value) }, choice.text));
        select.addEventListener('change', () => this.#update(true));
        root.append(this.#element('label', { for: select.id }, fields.label), select);
        value = () => (select.value === '' ? undefined : Number(select.value));
      }
      const price = this.#element('output', { class: 'tare-picker__price', 'aria-live': 'polite' });
      // The price per the shop's reference (€19.20/kg), beside the price, while the shop shows unit prices.
      const reference = this.#element('span', { class: 'tare-picker__reference-price' });
      const unit = this.#element('p', { class: 'tare-picker__unit-price' });
      const button = this.#element(
        'button',
        { type: 'button', class: 'tare-picker__add' },
        this.#text('add'),
      ) as HTMLButtonElement;
      const status = this.#element('p', { class: 'tare-picker__status', role: 'status' });
      button.addEventListener('click', () => void this.#add());
      root.append(
        this.#element('p', { class: 'tare-picker__line' }, `${this.#text('price')}: `, price, ' ', reference),
        unit,
        error,
        button,
        status,
      );
      this.append(root);
      this.#ui = {
        value,
        ...(factors ? { factors } : {}),
        ...(made ? { made } : {}),
        price,
        reference,
        unit,
        error,
        status,
        button,
      };
      this.#update(false);
    }

    /** Shows the line's price; with `announce`, also why the value is refused. */
    #update(announce: boolean): PickedLine | undefined {
      const context = this.#context;
      const ui = this.#ui;
      if (!context || !ui) return undefined;
      const line = pickLine({
        ...context,
        pricingMode: context.shop.pricingMode,
        value: ui.value(),
        ...(ui.factors ? { factors: ui.factors() } : {}),
      });
      const field = this.querySelector(`#${this.#uid}-value`);
      if (ui.made) ui.made.textContent = line.ok ? madeText(line.item.properties, context.labels) : '';
      if (line.ok) {
        ui.price.textContent = formatMoney(line.linePrice, context.variant.currency, context.locale);
        const unitPrice = line.visible[0];
        ui.unit.textContent = unitPrice ? `${unitPrice.name}: ${unitPrice.value}` : '';
        const referenceName = context.labels['referenceUnitPrice'];
        const perReference = line.visible.find((p) => p.name === referenceName && p !== unitPrice);
        ui.reference.textContent = perReference ? perReference.value : '';
        ui.error.textContent = '';
        field?.removeAttribute('aria-invalid');
      } else {
        ui.price.textContent = '—';
        ui.reference.textContent = '';
        if (announce) {
          ui.error.textContent = line.reasons.join('. ');
          field?.setAttribute('aria-invalid', 'true');
        }
      }
      return line;
    }

    async #add() {
      const ui = this.#ui;
      const line = this.#update(true);
      if (!ui || !line?.ok) return;
      ui.button.disabled = true;
      ui.status.textContent = this.#text('adding');
      try {
        const root = this.getAttribute('root') ?? '/';
        const response = await fetch(`${root.endsWith('/') ? root : `${root}/`}cart/add.js`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ items: [line.item] }),
        });
        const answer = (await response.json().catch(() => ({}))) as { description?: string; message?: string };
        if (!response.ok)
          throw new Error(answer.description ?? answer.message ?? `the cart answered ${response.status}`);
        ui.status.textContent = `${this.#text('added')}: ${ui.price.textContent}`;
        this.dispatchEvent(new CustomEvent('tare:cart-added', { bubbles: true, detail: answer }));
      } catch (error) {
        ui.status.textContent = '';
        ui.error.textContent = error instanceof Error ? error.message : String(error);
      } finally {
        ui.button.disabled = false;
      }
    }

    #element(tag: string, attributes: Record<string, string>, ...children: (Node | string)[]): HTMLElement {
      const node = this.ownerDocument.createElement(tag);
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
      node.append(...children);
      return node;
    }
  };
}

/**
 * What a line made from dimensions measures, for the customer: the area or volume (its net
 * property), the factors and the overage, as the line's visible properties say them.
 */
function madeText(properties: Record<string, string>, labels: Record<string, string>): string {
  const svc = JSON.parse(properties['_svc_data'] ?? '{}') as {
    measurement?: { type?: string; dimensions?: { value: number; unit: string }[] };
  };
  const first = svc.measurement?.dimensions?.[0];
  const shown = [labels['dimensions'], labels['overage']].flatMap((name) =>
    name !== undefined && properties[name] !== undefined ? [`${name}: ${properties[name]}`] : [],
  );
  return [first ? `= ${first.value} ${first.unit}` : '', ...shown].filter(Boolean).join(' · ');
}
