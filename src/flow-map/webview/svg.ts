/** The map's SVG elements, made with their attributes; text goes in as text, never as markup. */
export const SVG = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  parent?: Element,
): SVGElementTagNameMap[K] {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  parent?.appendChild(made);
  return made;
}

export function text(
  tag: 'text' | 'title',
  content: string,
  attributes: Record<string, string | number>,
  parent: Element,
): SVGElement {
  const made = svg(tag, attributes, parent);
  made.textContent = content;
  return made;
}
