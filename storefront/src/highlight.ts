// Marks the words of a search in a text the way the API matched them: ignoring case and accents
// (Greek tonos too), docs/discovery.md. A word matched only through a typo is not marked.

/** One character folded (lower case, no combining marks), per original character. */
function fold(char: string): string {
  return char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export interface Segment {
  text: string;
  mark: boolean;
}

/** The text cut into marked and unmarked runs. */
export function highlight(text: string, query: string): Segment[] {
  const words = query
    .split(/\s+/)
    .map((word) => [...word].map(fold).join(''))
    .filter((word) => word.length > 0)
    .slice(0, 8);
  const chars = [...text];
  // Folded text and, for each folded position, the original character it came from.
  let folded = '';
  const origin: number[] = [];
  chars.forEach((char, i) => {
    const f = fold(char);
    folded += f;
    for (let k = 0; k < f.length; k++) origin.push(i);
  });
  const marked = new Array<boolean>(chars.length).fill(false);
  for (const word of words) {
    let at = folded.indexOf(word);
    while (at !== -1) {
      for (let k = at; k < at + word.length; k++) marked[origin[k] ?? 0] = true;
      at = folded.indexOf(word, at + word.length);
    }
  }
  const segments: Segment[] = [];
  chars.forEach((char, i) => {
    const mark = marked[i] ?? false;
    const last = segments[segments.length - 1];
    if (last && last.mark === mark) last.text += char;
    else segments.push({ text: char, mark });
  });
  return segments;
}
