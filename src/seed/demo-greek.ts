// The demo shop's Greek texts (docs/translations.md): the departments and categories (with a
// slug in Latin letters), the options of the products in sizes and colours, the shipping methods, the home slides, the reels and the gift rule. A
// product's Greek name is its brand, its category's Greek name and its size.

/** Category name → its Greek name and Greek slug. */
/** Option name → its Greek name and its values' Greek names (a value missing here reads as itself). */
export const GREEK_OPTIONS: Record<string, [string, Record<string, string>]> = {
  Size: ['Μέγεθος', {}],
  Colour: ['Χρώμα', { Black: 'Μαύρο', White: 'Λευκό', Navy: 'Μπλε σκούρο' }],
};

/** A product's options in Greek: the same options in the same order (docs/translations.md). */
export function greekOptions(options: { name: string; values: string[] }[]): { name: string; values: string[] }[] {
  return options.map(({ name, values }) => {
    const [greek, names] = GREEK_OPTIONS[name] ?? [name, {}];
    return { name: greek, values: values.map((v) => names[v] ?? v) };
  });
}

export const GREEK_CATEGORIES: Record<string, [string, string]> = {
  Coffee: ['Καφές', 'kafes'],
  'Coffee Beans': ['Κόκκοι καφέ', 'kokkoi-kafe'],
  'Ground Coffee': ['Αλεσμένος καφές', 'alesmenos-kafes'],
  Capsules: ['Κάψουλες', 'kapsoules'],
  Tea: ['Τσάι', 'tsai'],
  'Green Tea': ['Πράσινο τσάι', 'prasino-tsai'],
  'Black Tea': ['Μαύρο τσάι', 'mavro-tsai'],
  'Herbal Tea': ['Αφεψήματα', 'afepsimata'],
  Machines: ['Μηχανές', 'mixanes'],
  'Espresso Machines': ['Μηχανές espresso', 'mixanes-espresso'],
  Grinders: ['Μύλοι άλεσης', 'myloi-alesis'],
  'Moka Pots': ['Μπρίκια moka', 'brikia-moka'],
  Kitchen: ['Κουζίνα', 'kouzina'],
  'Mugs & Cups': ['Κούπες και φλιτζάνια', 'koupes-kai-flitzania'],
  Brewing: ['Παρασκευή', 'paraskevi'],
  Accessories: ['Αξεσουάρ', 'aksesouar'],
  Sweets: ['Γλυκά', 'glyka'],
  Chocolate: ['Σοκολάτα', 'sokolata'],
  Biscuits: ['Μπισκότα', 'biskota'],
  Syrups: ['Σιρόπια', 'siropia'],
  'Ελληνικός Καφές': ['Ελληνικός καφές', 'ellinikos-kafes'],
  'Τσάι του Βουνού': ['Τσάι του βουνού', 'tsai-tou-vounou'],
  'Barista Wear': ['Ρούχα barista', 'rouxa-barista'],
};

/** The Greek texts of a category by its (default) name. */
export function greekCategory(name: string) {
  const [greek, slug] = GREEK_CATEGORIES[name] ?? [name, undefined];
  return { el: { name: greek, ...(slug ? { slug: `el-${slug}` } : {}) } };
}

/** Shipping method name → Greek name and description. */
export const GREEK_TRANSPORTS: Record<string, [string, string]> = {
  'Standard courier': ['Κούριερ', '2–3 εργάσιμες ημέρες'],
  'Express courier': ['Κούριερ express', 'Την επόμενη εργάσιμη'],
  'Pickup point': ['Σημείο παραλαβής', 'Παραλαβή από θυρίδα'],
  'Freight (retired)': ['Μεταφορική (καταργημένη)', ''],
};

/** Slide title → Greek title and subtitle. */
export const GREEK_SLIDES: Record<string, [string, string]> = {
  'Autumn roasts are here': ['Ήρθαν τα φθινοπωρινά χαρμάνια', 'Έως 30 % έκπτωση σε επιλεγμένους κόκκους'],
  'Free shipping from 250': ['Δωρεάν αποστολή από 250', 'Με το κούριερ'],
  'Make it at home': ['Φτιάξτε τον στο σπίτι', 'Μηχανές και μύλοι'],
  'Collect points': ['Μαζέψτε πόντους', '100 πόντοι = 5,00'],
  'Gift a treat': ['Χαρίστε μια λιχουδιά', 'Δωρεάν σοκολάτα άνω των 150'],
  'Old campaign': ['Παλιά καμπάνια', ''],
};

export const GREEK_REELS: Record<string, string> = {
  'Latte art in 60 seconds': 'Latte art σε 60 δευτερόλεπτα',
  'Dialing in espresso': 'Ρύθμιση του espresso',
  'Cold brew at home': 'Cold brew στο σπίτι',
  'Matcha whisking': 'Χτύπημα matcha',
  'Moka pot basics': 'Τα βασικά του μπρικιού moka',
  'Pairing chocolate and coffee': 'Σοκολάτα και καφές μαζί',
};

export const GREEK_GIFT_RULE = 'Δωρεάν σοκολάτα άνω των 150';

/** A text pair as translations: an empty Greek text is left out (the default text is read). */
export function el(fields: Record<string, string>): { el: Record<string, string> } {
  return { el: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')) };
}
