// The labels page: re-renders each preview as the staff member types, with the storefront's own
// renderTemplate and the import's own template check (served by Tare from @tare/contracts).
// Progressive enhancement only: without it, the page previews what is saved.
'use strict';

/** Replaces the preview's content with what customers read, or the reason the text is refused. */
function showPreview(preview, { key, text, tokens, examples }, template) {
  const problem = tokens && template.templateProblem(text, tokens);
  const parts = [];
  if (problem) {
    const line = document.createElement('p');
    line.className = 'preview-problem';
    line.textContent = `${key} ${problem}`;
    parts.push(line);
  } else if (examples.length === 0) {
    const rendered = document.createElement('span');
    rendered.className = 'rendered';
    rendered.textContent = text;
    parts.push(rendered);
  } else {
    const list = document.createElement('ul');
    for (const example of examples) {
      const item = document.createElement('li');
      const caption = document.createElement('span');
      caption.className = 'example';
      caption.textContent = `${example.quantity} ${example.unit}`;
      const rendered = document.createElement('span');
      rendered.className = 'rendered';
      rendered.textContent = template.renderTemplate(text, example);
      item.append(caption, ' ', rendered);
      list.append(item);
    }
    parts.push(list);
  }
  preview.replaceChildren(...parts);
}

document.addEventListener('DOMContentLoaded', async () => {
  const form = document.querySelector('form[data-label-editor]');
  if (!form) return;
  const template = await import('/admin/assets/label-template.js');
  for (const row of form.querySelectorAll('tr[data-label-row]')) {
    const input = row.querySelector('input');
    const preview = row.querySelector('.label-preview');
    const key = row.querySelector('th code').textContent;
    const tokens = row.dataset.tokens === undefined ? undefined : row.dataset.tokens.split(' ').filter(Boolean);
    const examples = JSON.parse(row.dataset.examples);
    input.addEventListener('input', () => {
      // An empty field removes the override: customers then read the fallback text.
      const text = input.value.trim() === '' ? row.dataset.fallback : input.value;
      showPreview(preview, { key, text, tokens, examples }, template);
    });
  }
  form.dataset.previewReady = 'true';
});
