/** The drawing as a standalone SVG file, as it looks in the page. */
import type { Drawing } from './drawing';
import { SVG, svg } from './svg';

/**
 * Colours come from the theme's variables, which mean nothing outside VS Code: the export carries the values they had.
 */
const PAINT = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'font-family',
  'font-size',
  'font-weight',
  'opacity',
  'text-anchor',
] as const;

export function svgFile(drawing: Drawing): string {
  const copy = drawing.svg.cloneNode(true) as SVGSVGElement;
  const originals = drawing.svg.querySelectorAll('*');
  const copies = copy.querySelectorAll('*');
  originals.forEach((original, i) => {
    const target = copies[i];
    if (!target || !(original instanceof SVGGraphicsElement || original instanceof SVGPathElement)) return;
    const computed = getComputedStyle(original);
    for (const property of PAINT) target.setAttribute(property, computed.getPropertyValue(property));
  });
  copy.querySelector('#viewport')?.removeAttribute('transform');
  copy.querySelectorAll('title').forEach((title) => title.remove());
  const { width, height } = drawing;
  const whole = { xmlns: SVG, width, height, viewBox: `0 0 ${width} ${height}` };
  Object.entries(whole).forEach(([name, value]) => copy.setAttribute(name, String(value)));
  const background = svg('rect', {
    width: '100%',
    height: '100%',
    fill: getComputedStyle(document.body).backgroundColor,
  });
  copy.insertBefore(background, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}
