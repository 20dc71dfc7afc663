// While a card payment is confirmed by the provider's event, the order's page asks again every
// few seconds (a handful of times; then its "Refresh" link remains).
const waiting = document.querySelector<HTMLElement>('[data-confirming]');
if (waiting) {
  const next = Number(waiting.dataset.confirming ?? '0') + 1;
  setTimeout(() => {
    const url = new URL(window.location.href);
    url.searchParams.set('wait', String(next));
    window.location.replace(url.toString());
  }, 2000);
}

// A module, so its top-level names are its own (each page script is loaded as type="module").
export {};
