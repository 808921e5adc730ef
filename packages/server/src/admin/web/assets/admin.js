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

  // A table wider than the screen scrolls inside its box (the page never scrolls sideways);
  // while it does, the box is a named region the keyboard can reach and scroll.
  const scrollers = [...document.querySelectorAll('.table-wrap')];
  const reachScrollers = () => {
    for (const wrap of scrollers) {
      if (wrap.scrollWidth > wrap.clientWidth) {
        wrap.tabIndex = 0;
        wrap.setAttribute('role', 'region');
        if (!wrap.hasAttribute('aria-label') && !wrap.hasAttribute('aria-labelledby')) {
          wrap.setAttribute('aria-label', regionName(wrap));
        }
      } else if (wrap.getAttribute('role') === 'region') {
        wrap.removeAttribute('tabindex');
        wrap.removeAttribute('role');
      }
    }
  };
  reachScrollers();
  window.addEventListener('resize', reachScrollers);

  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
});

/** A scrolling table's name: its caption, else the heading of its section, else 'Table'. */
function regionName(wrap) {
  const caption = wrap.querySelector('caption')?.textContent;
  const heading = wrap.closest('section, details, main')?.querySelector('h1, h2, h3')?.textContent;
  return `${(caption || heading || 'Table').trim()} (scrolls sideways)`;
}
