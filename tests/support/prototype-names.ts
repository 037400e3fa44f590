// Names that are members of every plain object (Object.prototype): keys an attacker sends in a
// query or a body hoping that a lookup finds the built-in member instead of a field.
export const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'propertyIsEnumerable',
  'toLocaleString',
] as const;
