// Runs on every page (a few hundred bytes): marks the document as scripted, so styles may show
// what only works with JavaScript.
document.documentElement.classList.add('js');

// A module, so its top-level names are its own (each page script is loaded as type="module").
export {};
