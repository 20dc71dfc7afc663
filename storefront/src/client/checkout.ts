// The checkout's choices price themselves: a change of country, shipping, payment, points, gift
// packaging or gift posts the form's "Update totals" (the page works the same without it).
const form = document.querySelector<HTMLFormElement>('form[data-checkout]');
const update = form?.querySelector<HTMLButtonElement>('button[data-update]');
if (form && update) {
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLElement;
    if (target.hasAttribute('data-reprice')) form.requestSubmit(update);
  });
}

// A module, so its top-level names are its own (each page script is loaded as type="module").
export {};
