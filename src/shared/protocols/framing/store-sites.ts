// Property stores that V8 can compile to field stores where one store site would not. A loop that
// writes a value's members (`container[key] = value`, key after key) makes one store site see a new
// name each time: it goes megamorphic, and each store is V8's generic keyed store (about 140
// instructions; 250 where it adds the property). Here each position of such a loop has a site of
// its own (a branch each), which sees one container map and one name on every run: a field
// store (or a map transition) the optimizing compiler inlines. The names must be the string
// table's copies (`internalized`): a site's feedback compares names by identity.
//
// A function per loop, so that two loops never share a site's feedback (one switch for both, with
// a range of cases each, made the slots' loop dearer than it saved in the members' one).

/** text-shape.ts: `container[key] = value` for a shape's slot at `position` (a site each for the first twelve). */
export function storeShapeSlot(position: number, container: Record<string, unknown>, key: string | number, value: unknown): void {
  switch (position) {
    case 0:
      container[key] = value;
      return;
    case 1:
      container[key] = value;
      return;
    case 2:
      container[key] = value;
      return;
    case 3:
      container[key] = value;
      return;
    case 4:
      container[key] = value;
      return;
    case 5:
      container[key] = value;
      return;
    case 6:
      container[key] = value;
      return;
    case 7:
      container[key] = value;
      return;
    case 8:
      container[key] = value;
      return;
    case 9:
      container[key] = value;
      return;
    case 10:
      container[key] = value;
      return;
    case 11:
      container[key] = value;
      return;
    default:
      container[key] = value;
  }
}

/** top-level-members.ts: `container[key] = value` for the member whose key is at `position` (up to eight keys). */
export function storeMember(position: number, container: Record<string, unknown>, key: string | number, value: unknown): void {
  if (position === 0) container[key] = value;
  else if (position === 1) container[key] = value;
  else if (position === 2) container[key] = value;
  else if (position === 3) container[key] = value;
  else if (position === 4) container[key] = value;
  else if (position === 5) container[key] = value;
  else if (position === 6) container[key] = value;
  else if (position === 7) container[key] = value;
  else container[key] = value;
}

/** `key` as the string table's copy, the one a property name of that spelling is. */
export function internalized(key: string): string {
  return Object.keys({ [key]: 0 })[0]!;
}
