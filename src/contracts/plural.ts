/**
 * English words that follow a count, for every message built with one (pages and emails): `1 buyer`,
 * `2 buyers`, `who has` / `who have`. `many` is for words whose plural is not one + "s".
 */
export const plural = (count: number, one: string, many = `${one}s`): string => (count === 1 ? one : many);

/** The count and its noun: countOf(1, "buyer") is "1 buyer", countOf(2, "copy", "copies") "2 copies". */
export const countOf = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${plural(count, one, many)}`;
