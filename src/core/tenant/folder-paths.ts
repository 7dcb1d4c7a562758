/**
 * Which paths a tenant folder may hold: the rules that keep every read and
 * write inside the folder, and a folder checked out on Linux usable on
 * Windows and macOS too. Paths are relative to the folder, with `/`
 * separators, as the manifest holds them.
 */

// Windows opens the device, not a file, for these names, whatever the extension.
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
const WINDOWS_RESERVED = /[<>:"|?*]/;
const CONTROL = /\p{Cc}/u;

/** Whether Windows takes a name (the part before its first dot, trailing spaces ignored) for a device. */
export function isDeviceName(stem: string): boolean {
  // Every path of a folder is checked on each read: most names are told apart by their first letters alone.
  if (!/^(?:con|prn|aux|nul|com|lpt)/i.test(stem)) return false;
  return DEVICE_NAME.test((stem.split('.')[0] ?? '').trimEnd());
}

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'has an empty segment (//)';
  if (segment === '..') return 'leads outside the folder (..)';
  if (segment === '.') return 'has a "." segment';
  const reserved = WINDOWS_RESERVED.exec(segment);
  if (reserved) return `holds ${reserved[0]}, which Windows does not allow in a name`;
  if (/[. ]$/.test(segment)) return `has a name ending in a dot or a space ("${segment}"), which Windows drops`;
  if (isDeviceName(segment))
    return `is a Windows device name (${(segment.split('.')[0] ?? '').trimEnd().toUpperCase()})`;
  return undefined;
}

// A path of plain names (letters and digits first and last) none of which may be a device: nearly every path a
// folder holds, told safe by two tests where every read and the layout of a large folder ask.
const PLAIN_NAME = '[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?';
const PLAIN_PATH = new RegExp(`^${PLAIN_NAME}(?:/${PLAIN_NAME})*$`);
const DEVICE_START = /(?:^|\/)(?:con|prn|aux|nul|com|lpt)/i;

/** Why a folder-relative path may not be read or written, or undefined when it may. */
export function unsafePath(file: string): string | undefined {
  if (PLAIN_PATH.test(file) && !DEVICE_START.test(file)) return undefined;
  if (file === '') return 'is empty';
  // The names a pull writes (letters, digits, - _ .) skip the character checks; every read and write asks.
  if (!PLAIN.test(file)) return characterProblem(file) ?? segmentsProblem(file);
  return segmentsProblem(file);
}

const PLAIN = /^[A-Za-z0-9_./-]+$/;

function characterProblem(file: string): string | undefined {
  if (CONTROL.test(file)) return 'holds a control character';
  if (/^[/\\]/.test(file) || /^[A-Za-z]:/.test(file)) return 'is an absolute path';
  if (file.includes('\\')) return 'holds a backslash; paths in a tenant folder use /';
  return undefined;
}

function segmentsProblem(file: string): string | undefined {
  if (file.startsWith('/')) return 'is an absolute path';
  for (const segment of file.split('/')) {
    // A plain name (letters and digits first and last) is fine unless a device: the common case, checked cheaply.
    if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_]$/.test(segment) && !isDeviceName(segment)) continue;
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

/** A README, which a folder may hold anywhere it may hold a file (contract: an allowed extra). */
const README_NAME = /^readme/i;

/**
 * Whether a file of this name is, unless the manifest lists it, the person's own that no plan or push reads (the
 * contract's allowed extras: a README, a dotfile). A pull names no file so (manifest.ts: fileStem).
 */
export function isExtraName(name: string): boolean {
  return name.startsWith('.') || README_NAME.test(name);
}

/** The key under which two names are one file on a case-insensitive file system (Windows, macOS). */
export function foldedName(name: string): string {
  // Plain ASCII, which nearly every name is, needs no normalisation.
  return PLAIN.test(name) ? name.toLowerCase() : name.normalize('NFC').toLowerCase();
}
