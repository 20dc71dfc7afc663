// The variant picker: one choice per option instead of the list of variants, with the values no
// variant in stock has (given the other choices) disabled, and the price, reference price and stock
// of the chosen variant shown. The form still posts `variantId` as without JavaScript.
import type { PickerData } from '../pages/product.tsx';

const form = document.querySelector<HTMLFormElement>('[data-add-to-cart]');
const picker = form?.querySelector<HTMLElement>('[data-picker]');
const select = form?.querySelector<HTMLSelectElement>('[data-variant-select]');
const dataBlock = document.getElementById('picker-data');

if (form && picker && select && dataBlock) {
  const data = JSON.parse(dataBlock.textContent ?? '{}') as PickerData;
  const radios = [...picker.querySelectorAll<HTMLInputElement>('input[type=radio]')];
  const button = form.querySelector<HTMLButtonElement>('[data-add-button]');
  const priceBlock = document.querySelector<HTMLElement>('[data-price-block]');
  const stock = document.querySelector<HTMLElement>('[data-stock]');

  const chosen = (): Record<string, string> => {
    const choice: Record<string, string> = {};
    for (const radio of radios) if (radio.checked) choice[radio.name.slice('option.'.length)] = radio.value;
    return choice;
  };
  const matches = (variant: PickerData['variants'][number], choice: Record<string, string>) =>
    Object.entries(choice).every(([name, value]) => variant.options[name] === value);

  const update = () => {
    const choice = chosen();
    // A value stays enabled when some variant in stock has it together with the other choices.
    for (const radio of radios) {
      const name = radio.name.slice('option.'.length);
      const others = { ...choice, [name]: radio.value };
      radio.disabled = !data.variants.some((variant) => variant.inStock && matches(variant, others));
    }
    const complete = data.options.every((option) => choice[option.name] !== undefined);
    const variant = complete ? data.variants.find((v) => matches(v, choice)) : undefined;
    const buyable = !!variant?.inStock;
    if (variant) select.value = String(variant.id);
    if (button) button.disabled = !buyable;
    if (variant && priceBlock) {
      const now = priceBlock.querySelector<HTMLElement>('[data-price]');
      if (now) now.textContent = variant.price;
      const reference = priceBlock.querySelector<HTMLElement>('[data-reference] span');
      if (reference && variant.referencePrice) reference.textContent = variant.referencePrice;
    }
    if (variant && stock) stock.textContent = variant.stock;
  };

  picker.hidden = false;
  select.closest('label')?.setAttribute('hidden', '');
  for (const radio of radios) radio.addEventListener('change', update);
  update();
}

// A module, so its top-level names are its own (each page script is loaded as type="module").
export {};
