/**
 * A file name or path that must end in a compound suffix such as
 * `.prompttest.json`: ending in it exactly once, whether the person (or a
 * save dialog) typed the suffix, part of it, or none.
 */
export function withSuffix(chosen: string, suffix: string): string {
  let file = chosen;
  while (file.endsWith(`${suffix}${suffix}`)) file = file.slice(0, -suffix.length);
  if (file.endsWith(suffix)) return file;
  const lastPart = suffix.slice(suffix.lastIndexOf('.'));
  return `${file.endsWith(lastPart) ? file.slice(0, -lastPart.length) : file}${suffix}`;
}
