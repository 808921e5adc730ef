// The variant forms' enhancements: only the fieldset of the chosen display style is shown, the
// new product form's units narrow to its measurement type, and the cart line preview follows what
// is typed. The forms work without this file (both fieldsets and every unit shown; the preview is
// rendered by the server on load and after each post).
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const form = document.getElementById('variant-form');
  if (!form) return;
  const style = form.querySelector('#displayStyle');
  const showFieldsets = () => {
    for (const fieldset of form.querySelectorAll('fieldset[data-style]')) {
      fieldset.hidden = !fieldset.dataset.style.split(' ').includes(style.value);
    }
  };
  style.addEventListener('change', showFieldsets);
  showFieldsets();

  // The new product form offers every unit grouped by type (so it works without this file);
  // here only the chosen type's group is left in the select, keeping the unit when it is of it.
  const type = form.querySelector('#measurementType');
  const unit = form.querySelector('#unit');
  const groups = unit ? [...unit.querySelectorAll('optgroup')] : [];
  if (type && groups.length > 0) {
    const narrow = () => {
      const group = groups.find((candidate) => candidate.label === type.value);
      if (!group) return;
      const chosen = unit.value;
      unit.replaceChildren(group);
      const kept = [...group.children].find((option) => option.value === chosen);
      unit.value = kept ? chosen : group.children[0].value;
    };
    type.addEventListener('change', narrow);
    narrow();
  }

  if (!form.dataset.preview) return;
  const preview = document.getElementById('preview');
  const status = document.getElementById('preview-status');
  let timer;
  let latest = 0;
  const refresh = async () => {
    const asked = ++latest;
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (name !== '_csrf') query.append(name, String(value));
    try {
      const answer = await fetch(`${form.dataset.preview}?${query}`, { headers: { accept: 'application/json' } });
      if (!answer.ok) throw new Error(`preview answered ${answer.status}`);
      const result = await answer.json();
      if (asked !== latest) return; // a newer preview is on its way
      render(result);
      status.textContent = result.lines.length
        ? `Preview updated: ${result.lines.map((line) => `${line.choice} ${line.measurement}, ${line.linePrice}`).join('; ')}.`
        : `Preview not available: ${result.problems.join('; ')}.`;
    } catch {
      if (asked === latest) status.textContent = 'The preview could not be updated; it will be after saving.';
    }
  };
  form.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });

  // Built with textContent only: names and labels from the shop are shown as text, never run.
  const element = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const render = (result) => {
    const nodes = [];
    if (result.problems.length) {
      const list = element('ul', undefined, 'preview-problems');
      for (const problem of result.problems) list.append(element('li', problem));
      nodes.push(list);
    }
    for (const line of result.lines) {
      const box = element('div', undefined, 'preview-line');
      box.append(element('h3', `${line.choice}: ${line.measurement}`));
      const table = element('table');
      table.append(
        element('caption', `Line item properties for ${line.choice}, ${line.measurement}`, 'visually-hidden'),
      );
      const head = element('thead');
      const headRow = element('tr');
      for (const name of ['Property', 'Value']) {
        const th = element('th', name);
        th.scope = 'col';
        headRow.append(th);
      }
      head.append(headRow);
      const body = element('tbody');
      for (const property of line.properties) {
        const row = element('tr');
        const name = element('th');
        name.scope = 'row';
        name.append(element('code', property.name));
        const value = element('td');
        value.append(element('code', property.value));
        row.append(name, value);
        body.append(row);
      }
      table.append(head, body);
      const price = element('p', 'Line price: ', 'line-price');
      price.append(element('strong', line.linePrice));
      box.append(table, price);
      nodes.push(box);
    }
    preview.replaceChildren(...nodes);
  };
});
