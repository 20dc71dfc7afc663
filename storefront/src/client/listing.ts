// A list page's filters, sort and page size apply as soon as one changes (without JavaScript the
// form's Apply button sends them). Keyboard users keep the focus on what they changed.
const form = document.querySelector<HTMLFormElement>('form[data-listing]');
if (form) {
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement | null;
    // Typed prices apply with Apply or Enter, not on every keystroke's change.
    if (!target || target.type === 'number') return;
    // The form holds no page number: a changed filter starts again at the first page.
    sessionStorage.setItem('listing-focus', `${target.name}=${target.value}`);
    form.requestSubmit();
  });
  const focus = sessionStorage.getItem('listing-focus');
  if (focus) {
    sessionStorage.removeItem('listing-focus');
    const [name, value] = focus.split('=');
    const element = [...form.elements].find(
      (e): e is HTMLInputElement | HTMLSelectElement =>
        (e instanceof HTMLInputElement || e instanceof HTMLSelectElement) &&
        e.name === name &&
        (e instanceof HTMLSelectElement || e.value === value),
    );
    element?.focus();
  }
  for (const button of form.querySelectorAll<HTMLElement>('[data-apply]')) button.hidden = true;
  // On a phone the filters fold away above the products (open without JavaScript, and while one is set).
  const filters = form.querySelector<HTMLDetailsElement>('details[data-filters]');
  const narrow = window.matchMedia('(max-width: 48rem)').matches;
  const anySet = [...form.querySelectorAll<HTMLInputElement>('details input')].some(
    (input) => (input.type === 'checkbox' && input.checked) || (input.type === 'number' && input.value),
  );
  if (filters && narrow && !anySet) filters.open = false;
}

// A module, so its top-level names are its own (each page script is loaded as type="module").
export {};
