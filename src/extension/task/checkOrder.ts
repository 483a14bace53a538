/** The runs checked in a multi-select pick, in the order they were checked: the first is run A ("this run"), the second B. */

/** `before` (checked earlier, in order) updated to the pick's selection now: unchecked ones leave, newly checked ones join at the end. */
export function inCheckOrder<T>(before: readonly T[], selected: readonly T[]): T[] {
  return [...before.filter((x) => selected.includes(x)), ...selected.filter((x) => !before.includes(x))];
}
