// Progressive enhancement only: every form works without this file.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  // Copy buttons: shown only where the Clipboard API exists.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const field = document.getElementById(button.dataset.copy);
    const status = button.closest('section')?.querySelector('.copy-status');
    if (!field || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        if (status) status.textContent = 'Copied to the clipboard.';
      } catch {
        field.select();
        if (status) status.textContent = 'Press Ctrl+C (⌘C) to copy the selected key.';
      }
    });
  }
  for (const field of document.querySelectorAll('[data-select-on-focus]')) {
    field.addEventListener('focus', () => field.select());
  }

  // A form marked data-submit-once is sent once: a double click does not post it twice (the
  // server also applies each form once; this spares the second round trip).
  for (const form of document.querySelectorAll('form[data-submit-once]')) {
    form.addEventListener('submit', (event) => {
      if (form.dataset.sent) {
        event.preventDefault();
        return;
      }
      form.dataset.sent = 'true';
      for (const button of form.querySelectorAll('button[type=submit]')) button.disabled = true;
    });
  }

  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
});
